import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import { TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { TransactionSchema, TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { pingEventBody, transactionEventBody } from './envelope';

const occurredAt = new Date('2026-11-24T10:00:00.123Z');

function event(status: TransactionStatus, eventType: string) {
  return create(TransactionEventSchema, {
    eventId: '4a617b68-89e0-4955-a90d-22ad4b4d08c2',
    eventType,
    schemaVersion: '1',
    occurredAt: timestampFromDate(occurredAt),
    tenantId: 'ten_a',
    transaction: create(TransactionSchema, {
      id: 'txn_01M86WVD9FPYXDBGGM8QA6YZHD',
      instructionId: 'ins_01M86WVD92NN1X4D2YBAFT43FE',
      tenantId: 'ten_a',
      status,
      rail: 'pix',
      createdAt: timestampFromDate(occurredAt),
      updatedAt: timestampFromDate(occurredAt),
      ...(status === TransactionStatus.COMPLETED
        ? { result: { reference: 'E999', settledAt: timestampFromDate(occurredAt) } }
        : { error: { reason: 'invalid creditor account', code: 'AC03', partnerStatus: 'RJCT' } }),
      callbackUrl: 'https://example.com/hook',
    }),
  });
}

describe('transactionEventBody', () => {
  it.each([
    [TransactionStatus.COMPLETED, 'transaction.completed'],
    [TransactionStatus.FAILED, 'transaction.failed'],
  ])('is the envelope of docs/api/webhooks.md "The event", data by the presenter (%s)', (status, type) => {
    const source = event(status, type);
    const made = transactionEventBody(source);
    const shown = toPublicTransaction(source.transaction!);
    expect(JSON.parse(made.body.toString('utf8'))).toEqual({
      schema_version: '1',
      event_id: source.eventId,
      event_type: type,
      occurred_at: '2026-11-24T10:00:00.123Z',
      data: {
        transaction_id: shown.id,
        instruction_id: shown.instructionId,
        status: shown.status,
        result: shown.result,
        error: shown.error,
      },
    });
    expect(made).toMatchObject({ eventId: source.eventId, eventType: type, transactionId: shown.id });
    // The callback URL and the tenant are ours, not the receiver's.
    expect(made.body.toString('utf8')).not.toContain('example.com');
    expect(made.body.toString('utf8')).not.toContain('ten_a');
  });

  it('gives the same bytes for the same event (stored once, sent on every attempt)', () => {
    const source = event(TransactionStatus.COMPLETED, 'transaction.completed');
    expect(transactionEventBody(source).body.equals(transactionEventBody(source).body)).toBe(true);
  });

  it('refuses an event without a transaction or of an unknown type', () => {
    const source = event(TransactionStatus.COMPLETED, 'transaction.completed');
    expect(() => transactionEventBody({ ...source, transaction: undefined })).toThrow(/no transaction/);
    expect(() => transactionEventBody({ ...source, eventType: 'transaction.refunded' })).toThrow(
      /unknown type/,
    );
  });
});

describe('pingEventBody', () => {
  it('is a webhook.ping envelope naming the endpoint, about no transaction', () => {
    const made = pingEventBody({ eventId: 'e1', endpointId: 'whe_1', occurredAt });
    expect(made.transactionId).toBeNull();
    expect(JSON.parse(made.body.toString('utf8'))).toMatchObject({
      schema_version: '1',
      event_id: 'e1',
      event_type: 'webhook.ping',
      occurred_at: '2026-11-24T10:00:00.123Z',
      data: { endpoint_id: 'whe_1' },
    });
  });
});
