import { type Timestamp, timestampDate } from '@bufbuild/protobuf/wkt';
import {
  DELIVERY_STATUSES,
  type DeliveryStatusName,
  deliveryStatuses,
  type RetryStrategyName,
  retryStrategies,
} from '@qr-payout/platform/vocabulary';
import type {
  Delivery,
  DeliveryAttempt,
  DeliveryStatus,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';

/** The delivery states (docs/api/webhooks.md "Delivery states"): the platform vocabulary's list. */
export { DELIVERY_STATUSES as PUBLIC_DELIVERY_STATUSES };
export type PublicDeliveryStatus = DeliveryStatusName;

// The HTTP translation of the status both ways: the `status` query filter and the JSON field.
export function isPublicDeliveryStatus(name: string): name is PublicDeliveryStatus {
  return deliveryStatuses.isName(name);
}

export function deliveryStatusOf(name: PublicDeliveryStatus): DeliveryStatus {
  return deliveryStatuses.toProto(name);
}

export interface PublicWebhookDelivery {
  id: string;
  event_id: string;
  event_type: string;
  /** Null for a `webhook.ping`, which is about no transaction. */
  transaction_id: string | null;
  /** Null for the ad-hoc `callback_url` path. */
  endpoint_id: string | null;
  url: string;
  status: PublicDeliveryStatus;
  attempts: number;
  max_attempts: number;
  retry_strategy: RetryStrategyName;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_response_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface PublicWebhookDeliveryAttempt {
  attempt_number: number;
  trigger: string;
  started_at: string;
  duration_ms: number;
  response_status: number | null;
  error_class: string | null;
  error: string | null;
  resolved_address: string | null;
  response_excerpt: string | null;
  succeeded: boolean;
}

/**
 * A webhook delivery as the API shows it (docs/api/webhooks.md "Webhook deliveries"): snake_case,
 * ISO 8601 UTC timestamps with milliseconds, and `null` where the service's message has its
 * "not set" value (0, empty string, absent timestamp), so every key is always present.
 */
export function toPublicWebhookDelivery(delivery: Delivery): PublicWebhookDelivery {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    transaction_id: delivery.transactionId || null,
    endpoint_id: delivery.endpointId || null,
    url: delivery.url,
    // A delivery with no state yet (never sent by the webhook service) is waiting.
    status: deliveryStatuses.nameOf(delivery.status) ?? 'pending',
    attempts: delivery.attempts,
    max_attempts: delivery.maxAttempts,
    retry_strategy: retryStrategies.nameOf(delivery.retryStrategy) ?? 'standard',
    next_attempt_at: isoOrNull(delivery.nextAttemptAt),
    last_attempt_at: isoOrNull(delivery.lastAttemptAt),
    last_response_status: delivery.lastResponseStatus || null,
    last_error: delivery.lastError || null,
    created_at: isoOrNull(delivery.createdAt) ?? '',
    updated_at: isoOrNull(delivery.updatedAt) ?? '',
  };
}

/** One attempt of the delivery's log (GET /v1/webhook-deliveries/{id}), same null rules. */
export function toPublicWebhookDeliveryAttempt(attempt: DeliveryAttempt): PublicWebhookDeliveryAttempt {
  return {
    attempt_number: attempt.attemptNumber,
    trigger: attempt.trigger,
    started_at: isoOrNull(attempt.startedAt) ?? '',
    duration_ms: attempt.durationMs,
    response_status: attempt.responseStatus || null,
    error_class: attempt.errorClass || null,
    error: attempt.error || null,
    resolved_address: attempt.resolvedAddress || null,
    response_excerpt: attempt.responseExcerpt || null,
    succeeded: attempt.succeeded,
  };
}

/**
 * The delivery with its attempts, oldest first, as `attempt_log`, and `earlier_attempts`: how many
 * older attempts of earlier series are no longer kept (docs/api/webhooks.md "Seeing what happened").
 */
export function toPublicWebhookDeliveryWithAttempts(
  delivery: Delivery,
  attempts: DeliveryAttempt[],
  earlierAttempts: number,
): PublicWebhookDelivery & { attempt_log: PublicWebhookDeliveryAttempt[]; earlier_attempts: number } {
  return {
    ...toPublicWebhookDelivery(delivery),
    attempt_log: attempts.map(toPublicWebhookDeliveryAttempt),
    earlier_attempts: earlierAttempts,
  };
}

function isoOrNull(ts: Timestamp | undefined): string | null {
  return ts ? timestampDate(ts).toISOString() : null;
}
