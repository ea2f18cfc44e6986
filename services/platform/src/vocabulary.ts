import { TransactionStatus, TransactionStatusSchema } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import {
  DeliveryStatus,
  DeliveryStatusSchema,
  RetryStrategy,
  RetryStrategySchema,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { namesOf } from './enum-names';

// The public names shared across processes (docs/api/resources.md "Transaction states",
// docs/api/webhooks.md). Where a proto enum carries the values (statuses, retry strategies), the
// enum is the one definition: the lower-case list and its type are derived from it here, and
// every process imports them, so adding a value to the enum carries it everywhere. Event types,
// which no enum carries, are written here once. The SQL CHECKs that repeat a list are tested
// against it (services/*/test/vocabulary-checks.int.test.ts). Rails: partner-protocol.ts RAILS.

/** Transaction states, in lifecycle order (proto TransactionStatus). */
export const TRANSACTION_STATUSES = namesOf(TransactionStatusSchema, TransactionStatus);
export type TransactionStatusName = (typeof TRANSACTION_STATUSES)[number];

/** Webhook delivery states (docs/api/webhooks.md "Delivery states"; proto DeliveryStatus). */
export const DELIVERY_STATUSES = namesOf(DeliveryStatusSchema, DeliveryStatus);
export type DeliveryStatusName = (typeof DELIVERY_STATUSES)[number];

/** Webhook retry schedules an endpoint can choose (docs/api/webhooks.md "Retries"; proto RetryStrategy). */
export const RETRY_STRATEGIES = namesOf(RetryStrategySchema, RetryStrategy);
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
