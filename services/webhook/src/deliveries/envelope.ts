import { timestampDate } from '@bufbuild/protobuf/wkt';
import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import {
  PING_EVENT_TYPE,
  TRANSACTION_EVENT_TYPES,
  type WebhookEventType,
} from '@qr-payout/platform/vocabulary';
import type { TransactionEvent } from '@qr-payout/proto/payout/events/v1/events_pb';

// The webhook event envelope and its data (docs/api/webhooks.md "The event").
// It is serialized once, when the delivery is created, and stored: every attempt and every replay
// sends the same bytes, so a receiver sees one body per event_id.

export const SCHEMA_VERSION = '1';
// Event type names: the platform vocabulary's one list.
export { PING_EVENT_TYPE, type WebhookEventType };

const TRANSACTION_EVENT_TYPE_SET: ReadonlySet<string> = new Set(TRANSACTION_EVENT_TYPES);

/** What a delivery stores about its event: the envelope's identity and its exact body. */
export type EventBody = {
  eventId: string;
  eventType: WebhookEventType;
  transactionId: string | null;
  body: Buffer;
};

/**
 * The envelope of a terminal transaction event read from Kafka. `data` mirrors the stored
 * transaction through the one public presenter (the same `status`, `result` and `error` that
 * GET /v1/transactions/{id} shows).
 */
export function transactionEventBody(event: TransactionEvent): EventBody {
  const txn = event.transaction;
  if (!txn) throw new Error(`event ${event.eventId} carries no transaction`);
  if (!TRANSACTION_EVENT_TYPE_SET.has(event.eventType)) {
    throw new Error(`event ${event.eventId} has an unknown type ${JSON.stringify(event.eventType)}`);
  }
  const shown = toPublicTransaction(txn);
  const envelope = {
    schema_version: SCHEMA_VERSION,
    event_id: event.eventId,
    event_type: event.eventType,
    occurred_at: (event.occurredAt ? timestampDate(event.occurredAt) : new Date()).toISOString(),
    data: {
      transaction_id: shown.id,
      instruction_id: shown.instructionId,
      status: shown.status,
      result: shown.result,
      error: shown.error,
    },
  };
  return {
    eventId: event.eventId,
    eventType: event.eventType as WebhookEventType,
    transactionId: shown.id,
    body: Buffer.from(JSON.stringify(envelope), 'utf8'),
  };
}

/** The envelope of an operator's test event to one endpoint (`payoutctl endpoint ping`). */
export function pingEventBody(opts: { eventId: string; endpointId: string; occurredAt: Date }): EventBody {
  const envelope = {
    schema_version: SCHEMA_VERSION,
    event_id: opts.eventId,
    event_type: PING_EVENT_TYPE,
    occurred_at: opts.occurredAt.toISOString(),
    data: {
      endpoint_id: opts.endpointId,
      message: 'Test event sent by the operator; answer 2xx to confirm the endpoint receives webhooks.',
    },
  };
  return {
    eventId: opts.eventId,
    eventType: PING_EVENT_TYPE,
    transactionId: null,
    body: Buffer.from(JSON.stringify(envelope), 'utf8'),
  };
}
