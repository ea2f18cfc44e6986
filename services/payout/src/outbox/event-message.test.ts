import { create, fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { TransactionSchema, TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { buildTransactionEvent } from './event-message';

const EVENT_ID = '0b0f7f5e-8a4d-4c55-9d0e-1f1f2b3c4d5e';
const occurredAt = new Date('2026-03-04T05:06:07.890Z');

function txn(status: TransactionStatus) {
  return create(TransactionSchema, {
    id: 'txn_01JD0000000000000000000001',
    tenantId: 'ten_a',
    status,
    rail: 'pix',
    amount: { currency: 'BRL', amountMinor: 9_007_199_254_740_993n },
  });
}

describe('buildTransactionEvent', () => {
  it('maps a completed transaction to transaction.completed, keyed by its id', () => {
    const message = buildTransactionEvent(txn(TransactionStatus.COMPLETED), {
      eventId: EVENT_ID,
      occurredAt,
    });
    expect(message.key).toBe('txn_01JD0000000000000000000001');
    expect(message.eventType).toBe('transaction.completed');
    // No active span: no trace headers, and nothing else than the event's own.
    expect(message.headers).toEqual({ 'event-id': EVENT_ID, 'event-type': 'transaction.completed' });
    const event = fromBinary(TransactionEventSchema, message.payload);
    expect(event.eventId).toBe(EVENT_ID);
    expect(event.eventType).toBe('transaction.completed');
    expect(event.schemaVersion).toBe('1');
    expect(event.tenantId).toBe('ten_a');
    expect(timestampDate(event.occurredAt!)).toEqual(occurredAt);
    expect(event.transaction?.amount?.amountMinor).toBe(9_007_199_254_740_993n);
  });

  it('maps a failed transaction to transaction.failed', () => {
    const message = buildTransactionEvent(txn(TransactionStatus.FAILED), { eventId: EVENT_ID, occurredAt });
    expect(message.eventType).toBe('transaction.failed');
    expect(message.headers['event-type']).toBe('transaction.failed');
  });

  it('refuses a transaction that is not terminal', () => {
    for (const status of [TransactionStatus.PENDING, TransactionStatus.PROCESSING]) {
      expect(() => buildTransactionEvent(txn(status), { eventId: EVENT_ID, occurredAt })).toThrow(
        /not terminal/,
      );
    }
  });

  it('carries the W3C trace context of the given context', () => {
    const ctx = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
    });
    const message = buildTransactionEvent(txn(TransactionStatus.COMPLETED), {
      eventId: EVENT_ID,
      occurredAt,
      ctx,
    });
    expect(message.headers['traceparent']).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
  });
});
