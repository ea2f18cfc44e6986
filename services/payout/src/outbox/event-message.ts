import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Context } from '@opentelemetry/api';
import { traceHeadersOf } from '@qr-payout/platform/telemetry';
import type { TransactionEventType } from '@qr-payout/platform/vocabulary';
import { TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { type Transaction, TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';

/**
 * Event types of topic payout.transaction-events.v1 (docs/api/webhooks.md "The event"); one per
 * terminal status. The names are the platform vocabulary's one list.
 */
export type { TransactionEventType };

/** What the outbox stores for one event: the Kafka key, value and headers, ready to publish. */
export type OutboxMessage = {
  eventId: string;
  eventType: TransactionEventType;
  key: string;
  payload: Uint8Array;
  headers: Record<string, string>;
};

function eventTypeOf(txn: Transaction): TransactionEventType {
  if (txn.status === TransactionStatus.COMPLETED) return 'transaction.completed';
  if (txn.status === TransactionStatus.FAILED) return 'transaction.failed';
  // Only terminal transitions are events (docs/architecture.md "Transactions"); anything else is a
  // caller bug.
  throw new Error(`transaction ${txn.id} is not terminal (status ${TransactionStatus[txn.status]})`);
}

/**
 * The TransactionEvent (protobuf binary) of a transaction that just reached a terminal state, and
 * its headers: `event-id`, `event-type`, and the W3C `traceparent`/`tracestate` of `ctx` (the
 * active context by default) so the consumer continues the trace that settled the transaction.
 */
export function buildTransactionEvent(
  txn: Transaction,
  opts: { eventId: string; occurredAt: Date; ctx?: Context },
): OutboxMessage {
  const eventType = eventTypeOf(txn);
  const event = create(TransactionEventSchema, {
    eventId: opts.eventId,
    eventType,
    schemaVersion: '1',
    occurredAt: timestampFromDate(opts.occurredAt),
    tenantId: txn.tenantId,
    transaction: txn,
  });
  // The trace context the relay's `publish` span continues (docs/architecture.md "Traces"); none
  // when telemetry is off.
  const headers: Record<string, string> = {
    'event-id': opts.eventId,
    'event-type': eventType,
    ...traceHeadersOf(opts.ctx),
  };
  return {
    eventId: opts.eventId,
    eventType,
    key: txn.id,
    payload: toBinary(TransactionEventSchema, event),
    headers,
  };
}
