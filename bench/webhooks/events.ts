// Synthetic terminal transaction events for the delivery-throughput part, shaped as payout's
// outbox writes them (services/payout/src/outbox/event-message.ts: key = transaction id, headers
// event-id and event-type), and the exact webhook body the service makes of each
// (services/webhook/src/deliveries/envelope.ts), which the baseline signs and sends.
import { randomBytes, randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type TransactionEvent, TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { transactionEventBody } from '../../services/webhook/src/deliveries/envelope';

export const EVENT_TYPE = 'transaction.completed';

/** A completed Pix transaction's event for `tenantId`, occurred at `occurredAt`. */
export function syntheticEvent(tenantId: string, occurredAt: Date): TransactionEvent {
  const suffix = randomBytes(12).toString('hex');
  const settled = timestampFromDate(occurredAt);
  return create(TransactionEventSchema, {
    eventId: randomUUID(),
    eventType: EVENT_TYPE,
    schemaVersion: '1',
    occurredAt: settled,
    tenantId,
    transaction: {
      id: `txn_${suffix}`,
      tenantId,
      instructionId: `ins_${suffix}`,
      status: TransactionStatus.COMPLETED,
      rail: 'pix',
      createdAt: timestampFromDate(new Date(occurredAt.getTime() - 40)),
      updatedAt: settled,
      result: { reference: `E12345678${suffix.slice(0, 20).toUpperCase()}0`, settledAt: settled },
      amount: { currency: 'BRL', amountMinor: 1000n },
      payAmount: { currency: 'BRL', amountMinor: 1000n },
      // No callback_url: one delivery per event, to the tenant's one endpoint.
      callbackUrl: '',
      schemeId: 'pix',
    },
  });
}

/** The Kafka message payout's relay would publish for `event`. */
export function kafkaMessageOf(event: TransactionEvent): {
  key: string;
  value: Buffer;
  headers: Record<string, string>;
} {
  return {
    key: event.transaction?.id ?? event.eventId,
    value: Buffer.from(toBinary(TransactionEventSchema, event)),
    headers: { 'event-id': event.eventId, 'event-type': event.eventType },
  };
}

/** The webhook body the service stores and sends for `event` (the same bytes). */
export function webhookBodyOf(event: TransactionEvent): { eventId: string; body: Buffer } {
  const { eventId, body } = transactionEventBody(event);
  return { eventId, body };
}
