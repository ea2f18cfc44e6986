import type { WebhookEventType } from '@qr-payout/platform/vocabulary';
import { EXAMPLE_EVENTS } from '../openapi/examples';
import type { ParameterSchema } from '../openapi/route';
import {
  WEBHOOK_PING_EVENT_SCHEMA,
  WEBHOOK_TRANSACTION_COMPLETED_EVENT_SCHEMA,
  WEBHOOK_TRANSACTION_FAILED_EVENT_SCHEMA,
} from './schemas';

// The webhook events a receiver gets (docs/api/webhooks.md "The event", "The signature"), declared
// as the routes are: each event's payload, the headers every delivery carries and what the
// receiver's answer means, with the prose and examples beside them. The OpenAPI document's
// `webhooks` are generated from these (openapi/webhooks.ts).

/** The headers of every delivery, in the order the document lists them. */
export const WEBHOOK_EVENT_HEADERS = {
  type: 'object',
  required: ['Service-Signature', 'x-event-id', 'x-event-type'],
  properties: {
    'Service-Signature': {
      type: 'string',
      pattern: '^t=[0-9]+(,v1=[0-9a-f]{64})+$',
      description:
        '`t=<unix seconds>,v1=<hex HMAC-SHA256>`: the digest is HMAC-SHA256 with your signing secret as key over ' +
        '`"<t>.<raw body>"` (the decimal t, a dot, the exact body bytes), in lowercase hex. During a secret rotation ' +
        'the header carries one `v1=` per secret still signing (the new one and, for its grace period, the previous ' +
        'one): accept the request when any of them matches. Verify before anything else: reject when |now − t| is over ' +
        '300 s, recompute the digest over the raw body and compare in constant time, and parse the JSON only after ' +
        'it verified (any change to the bytes breaks the signature). The signature is made anew for every attempt.',
    },
    'x-event-id': {
      type: 'string',
      format: 'uuid',
      description:
        "The envelope's `event_id`, readable before parsing: deduplicate on it (delivery is at least once).",
    },
    'x-event-type': {
      type: 'string',
      description: "The envelope's `event_type`.",
    },
  },
} as const satisfies ParameterSchema;

/** What the receiver's answer means, status by status. */
export const WEBHOOK_EVENT_RESPONSES = {
  '2XX': {
    description:
      'Received. Any 2xx stops the retries, also for a duplicate `event_id` (answer 2xx and ignore it). The body is not read.',
  },
  default: {
    description:
      'Any other status, or no answer in time: the delivery is retried on its schedule (standard 16 attempts ' +
      'over about 5.7 days, extended 17 over about 6.2 days, ±20% jitter), then `exhausted`. A failed signature check ' +
      'should be answered 4xx (401); the event can be sent again with POST /v1/webhook-deliveries/{id}/replay.',
  },
} as const;

/** What every event's description ends with: how a delivery is sent and is to be received. */
export const WEBHOOK_DELIVERY_DESCRIPTION =
  'Every attempt is a POST of this JSON envelope (docs/api/webhooks.md "The event"), signed with your ' +
  'tenant\'s signing secret in `Service-Signature` (docs/api/webhooks.md "The signature"): verify it over ' +
  'the raw body before parsing, deduplicate on `event_id`, answer 2xx.';

export interface WebhookEventDefinition {
  readonly eventType: WebhookEventType;
  /** Its envelope's name in the document's components.schemas. */
  readonly componentName: string;
  readonly summary: string;
  readonly description: string;
  /** The envelope's JSON Schema (http/schemas.ts). */
  readonly payload: object;
  /** An example envelope: the document's request body example, signed in its header examples. */
  readonly example: { readonly event_id: string };
}

/** Every event type, in the order the document lists them. */
export const WEBHOOK_EVENTS: readonly WebhookEventDefinition[] = [
  {
    eventType: 'transaction.completed',
    componentName: 'WebhookTransactionCompletedEvent',
    summary: 'A transaction completed',
    description:
      'Sent to every registered endpoint subscribed to `transaction.completed` (or `*`) and to the ' +
      "transaction's `callback_url`, when the payment settled. `data.result` carries the rail's " +
      'reference and `settledAt`; `data.error` is null.',
    payload: WEBHOOK_TRANSACTION_COMPLETED_EVENT_SCHEMA,
    example: EXAMPLE_EVENTS['transaction.completed'],
  },
  {
    eventType: 'transaction.failed',
    componentName: 'WebhookTransactionFailedEvent',
    summary: 'A transaction failed',
    description:
      'Sent to every registered endpoint subscribed to `transaction.failed` (or `*`) and to the ' +
      "transaction's `callback_url`, when the payment was definitively rejected or failed. " +
      '`data.error` carries `reason`, `code` (ISO 20022) and `partnerStatus`; `data.result` is null.',
    payload: WEBHOOK_TRANSACTION_FAILED_EVENT_SCHEMA,
    example: EXAMPLE_EVENTS['transaction.failed'],
  },
  {
    eventType: 'webhook.ping',
    componentName: 'WebhookPingEvent',
    summary: 'A test event from the operator',
    description:
      'Sent to one registered endpoint when the operator tests it (`payoutctl endpoint ping`), whatever its ' +
      'subscription; signed, retried and listed like any delivery. `transaction_id` of its delivery is null.',
    payload: WEBHOOK_PING_EVENT_SCHEMA,
    example: EXAMPLE_EVENTS['webhook.ping'],
  },
];
