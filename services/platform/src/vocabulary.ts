import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { DeliveryStatus, RetryStrategy } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';

// The public names shared across processes (docs/api/resources.md "Transaction states",
// docs/api/webhooks.md): each list is written here once, in lower case, and every process imports
// it. Where a proto enum carries the same values, the name ↔ enum maps below are derived from the
// list (a name without its enum value does not compile; vocabulary.test.ts checks that the enum has
// no value the list lacks). The SQL CHECKs that repeat a list are tested against it
// (services/*/test/vocabulary-checks.int.test.ts). Rails: partner-protocol.ts RAILS.

/** Transaction states, in lifecycle order. */
export const TRANSACTION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type TransactionStatusName = (typeof TRANSACTION_STATUSES)[number];

/** Webhook delivery states (docs/api/webhooks.md "Delivery states"). */
export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed', 'exhausted'] as const;
export type DeliveryStatusName = (typeof DELIVERY_STATUSES)[number];

/** Webhook retry schedules an endpoint can choose (docs/api/webhooks.md "Retries"). */
export const RETRY_STRATEGIES = ['standard', 'extended'] as const;
export type RetryStrategyName = (typeof RETRY_STRATEGIES)[number];

/** The events a transaction's settlement causes (payout's outbox, Kafka `event_type`). */
export const TRANSACTION_EVENT_TYPES = ['transaction.completed', 'transaction.failed'] as const;
export type TransactionEventType = (typeof TRANSACTION_EVENT_TYPES)[number];
/** The test event an endpoint's owner asks for. */
export const PING_EVENT_TYPE = 'webhook.ping';
/** Every webhook event type (the `event_type` of the envelope). */
export type WebhookEventType = TransactionEventType | typeof PING_EVENT_TYPE;

/** A list of lower-case names and its proto enum: the maps both ways, derived from the list. */
type ProtoVocabulary<N extends string, E extends number> = {
  readonly names: readonly N[];
  /** The enum value of a name. */
  toProto(name: N): E;
  /** The name of an enum value; undefined for UNSPECIFIED or a value this build does not know. */
  nameOf(value: E): N | undefined;
  /** Whether a string is one of the names. */
  isName(value: string): value is N;
};

function protoVocabulary<N extends string, E extends number>(
  enumObject: Readonly<Record<Uppercase<N>, E>>,
  names: readonly N[],
): ProtoVocabulary<N, E> {
  const toProto = new Map<N, E>(names.map((name) => [name, enumObject[name.toUpperCase() as Uppercase<N>]]));
  const toName = new Map<E, N>(names.map((name) => [enumObject[name.toUpperCase() as Uppercase<N>], name]));
  return {
    names,
    toProto: (name) => toProto.get(name) as E,
    nameOf: (value) => toName.get(value),
    isName: (value): value is N => toProto.has(value as N),
  };
}

export const transactionStatuses = protoVocabulary(TransactionStatus, TRANSACTION_STATUSES);
export const deliveryStatuses = protoVocabulary(DeliveryStatus, DELIVERY_STATUSES);
export const retryStrategies = protoVocabulary(RetryStrategy, RETRY_STRATEGIES);
