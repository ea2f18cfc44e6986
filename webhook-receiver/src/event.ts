import { checkRawBody } from './signature-scheme';

// The event envelope and its `data` (docs/api/webhooks.md "The event"). Parse only a verified
// body.

/**
 * Stored on success (docs/api/resources.md "Transactions"). `settledAt` is an ISO 8601 UTC
 * timestamp; the service's presenter allows null when the partner reported none.
 */
export type TransactionResult = { reference: string; settledAt: string | null };
/** Stored on failure (docs/api/resources.md "Transactions"). */
export type TransactionError = { reason: string; code: string; partnerStatus: string };

type Envelope<Type extends string, Data> = {
  schema_version: '1';
  /** UUID, unique per event: deduplicate on it. */
  event_id: string;
  event_type: Type;
  /** ISO 8601 UTC timestamp. */
  occurred_at: string;
  data: Data;
};

export type TransactionCompletedEvent = Envelope<
  'transaction.completed',
  {
    transaction_id: string;
    instruction_id: string;
    status: 'completed';
    result: TransactionResult;
    error: null;
  }
>;

export type TransactionFailedEvent = Envelope<
  'transaction.failed',
  {
    transaction_id: string;
    instruction_id: string;
    status: 'failed';
    result: null;
    error: TransactionError;
  }
>;

/** An operator's test event: answer 2xx, nothing to process. */
export type WebhookPingEvent = Envelope<'webhook.ping', { endpoint_id: string; message: string }>;

export type WebhookEvent = TransactionCompletedEvent | TransactionFailedEvent | WebhookPingEvent;
export type WebhookEventType = WebhookEvent['event_type'];
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'transaction.completed',
  'transaction.failed',
  'webhook.ping',
];

export type ParseFailureReason =
  | 'invalid_json'
  | 'invalid_envelope'
  | 'unsupported_schema_version'
  | 'unknown_event_type';

export type ParseResult =
  | { ok: true; event: WebhookEvent }
  | {
      ok: false;
      reason: Exclude<ParseFailureReason, 'unknown_event_type'>;
      /** What is wrong, for logs (never contains body values). */
      detail: string;
    }
  | {
      /** A valid envelope whose event type this version does not know. */
      ok: false;
      reason: 'unknown_event_type';
      detail: string;
      eventId: string;
      eventType: string;
    };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

class Invalid extends Error {}

/**
 * Parses a verified body and checks the envelope and the `data` of the known event types.
 * Fields beyond those documented are kept as they are; a missing `result` / `error` reads as null.
 * An event type this version does not know yields `unknown_event_type` with its id and type: an
 * endpoint subscribed to `["*"]` receives future types too, so acknowledge those (2xx) rather
 * than refuse them (`receiveWebhook` answers 200).
 */
export function parseWebhookEvent(rawBody: Buffer | string): ParseResult {
  const body = checkRawBody(rawBody);
  let json: unknown;
  try {
    json = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid_json', detail: 'body is not JSON' };
  }
  try {
    const envelope = object(json, 'body');
    if (envelope['schema_version'] !== '1') {
      return {
        ok: false,
        reason: 'unsupported_schema_version',
        detail: `schema_version ${JSON.stringify(envelope['schema_version'])} is not "1"`,
      };
    }
    const eventId = string(envelope, 'event_id');
    if (!UUID.test(eventId)) throw new Invalid('event_id is not a UUID');
    const eventType = string(envelope, 'event_type');
    const occurredAt = string(envelope, 'occurred_at');
    if (!ISO_UTC.test(occurredAt) || Number.isNaN(Date.parse(occurredAt))) {
      throw new Invalid('occurred_at is not an ISO 8601 UTC timestamp');
    }
    const data = object(envelope['data'], 'data');
    const base = { ...envelope, schema_version: '1' as const, event_id: eventId, occurred_at: occurredAt };
    switch (eventType) {
      case 'transaction.completed': {
        const txn = transactionData(data, 'completed');
        const result = nullable(data, 'result', transactionResult);
        if (result === null) throw new Invalid('data.result is null in a transaction.completed event');
        if (nullable(data, 'error', transactionError) !== null) {
          throw new Invalid('data.error is set in a transaction.completed event');
        }
        return {
          ok: true,
          event: { ...base, event_type: eventType, data: { ...data, ...txn, result, error: null } },
        };
      }
      case 'transaction.failed': {
        const txn = transactionData(data, 'failed');
        const error = nullable(data, 'error', transactionError);
        if (error === null) throw new Invalid('data.error is null in a transaction.failed event');
        if (nullable(data, 'result', transactionResult) !== null) {
          throw new Invalid('data.result is set in a transaction.failed event');
        }
        return {
          ok: true,
          event: { ...base, event_type: eventType, data: { ...data, ...txn, result: null, error } },
        };
      }
      case 'webhook.ping':
        return {
          ok: true,
          event: {
            ...base,
            event_type: eventType,
            data: {
              ...data,
              endpoint_id: string(data, 'endpoint_id', 'data.'),
              message: text(data, 'message', 'data.'),
            },
          },
        };
      default:
        return {
          ok: false,
          reason: 'unknown_event_type',
          detail: `event_type ${JSON.stringify(eventType)} is not known to this version`,
          eventId,
          eventType,
        };
    }
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, reason: 'invalid_envelope', detail: err.message };
    throw err;
  }
}

function transactionData<S extends 'completed' | 'failed'>(data: Record<string, unknown>, status: S) {
  const transaction_id = string(data, 'transaction_id', 'data.');
  const instruction_id = string(data, 'instruction_id', 'data.');
  if (data['status'] !== status) throw new Invalid(`data.status is not "${status}"`);
  return { transaction_id, instruction_id, status };
}

function transactionResult(value: unknown): TransactionResult {
  const result = object(value, 'data.result');
  return {
    ...result,
    reference: text(result, 'reference', 'data.result.'),
    settledAt: result['settledAt'] === null ? null : text(result, 'settledAt', 'data.result.'),
  };
}

function transactionError(value: unknown): TransactionError {
  const error = object(value, 'data.error');
  return {
    ...error,
    reason: text(error, 'reason', 'data.error.'),
    code: text(error, 'code', 'data.error.'),
    partnerStatus: text(error, 'partnerStatus', 'data.error.'),
  };
}

function nullable<T>(from: Record<string, unknown>, key: string, read: (value: unknown) => T): T | null {
  const value = from[key];
  return value === undefined || value === null ? null : read(value);
}

function object(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Invalid(`${name} is not an object`);
  }
  return value as Record<string, unknown>;
}

/** An identifier: a non-empty string. */
function string(from: Record<string, unknown>, key: string, prefix = ''): string {
  const value = from[key];
  if (typeof value !== 'string' || value === '')
    throw new Invalid(`${prefix}${key} is not a non-empty string`);
  return value;
}

/** A text field: a string, possibly empty (a failure may carry no partner status). */
function text(from: Record<string, unknown>, key: string, prefix: string): string {
  const value = from[key];
  if (typeof value !== 'string') throw new Invalid(`${prefix}${key} is not a string`);
  return value;
}
