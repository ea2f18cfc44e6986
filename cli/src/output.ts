import { type Timestamp, timestampDate } from '@bufbuild/protobuf/wkt';
import { deliveryStatuses, type RetryStrategyName, retryStrategies } from '@qr-payout/platform/vocabulary';
import type { ApiKey, Tenant } from '@qr-payout/proto/payout/admin/v1/admin_pb';
import {
  type Delivery,
  type DeliveryAttempt,
  DeliveryStatus,
  type Endpoint,
  RetryStrategy,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { DeliveryStatusName } from './args';

// The CLI's JSON: the admin API's messages (proto/payout/admin/v1/admin.proto) with their field
// names in snake_case, enums as the public API names them, ISO 8601 timestamps, null for "not set".
// Endpoints and deliveries are the public API's objects (docs/api-conventions.md "Webhook
// deliveries"; gateway/src/http/presenters/, mirrored: the CLI and the gateway are separate
// deployables) plus `tenant_id`, since the operator sees every tenant's.

export function iso(ts: Timestamp | undefined): string | null {
  return ts ? timestampDate(ts).toISOString() : null;
}

export function tenantJson(t: Tenant | undefined) {
  return {
    id: t?.id ?? '',
    name: t?.name ?? '',
    // 0 on the wire means "the gateway's default".
    rate_limit_per_minute: t?.rateLimitPerMinute || null,
    created_at: iso(t?.createdAt),
  };
}

export function apiKeyJson(k: ApiKey | undefined) {
  return {
    prefix: k?.prefix ?? '',
    tenant_id: k?.tenantId ?? '',
    created_at: iso(k?.createdAt),
    revoked_at: iso(k?.revokedAt),
  };
}

export function retryName(strategy: RetryStrategy): RetryStrategyName {
  return retryStrategies.nameOf(strategy) ?? 'standard';
}

export function endpointJson(e: Endpoint | undefined) {
  return {
    id: e?.id ?? '',
    tenant_id: e?.tenantId ?? '',
    url: e?.url ?? '',
    event_types: e?.eventTypes ?? [],
    header_names: e?.headerNames ?? [],
    retry_strategy: retryName(e?.retryStrategy ?? RetryStrategy.UNSPECIFIED),
    enabled: e?.enabled ?? false,
    disabled_reason: e?.disabledReason || null,
    created_at: iso(e?.createdAt),
  };
}

export function deliveryStatusOf(name: DeliveryStatusName | undefined): DeliveryStatus {
  return name === undefined ? DeliveryStatus.UNSPECIFIED : deliveryStatuses.toProto(name);
}

export function deliveryJson(d: Delivery | undefined) {
  return {
    id: d?.id ?? '',
    tenant_id: d?.tenantId ?? '',
    event_id: d?.eventId ?? '',
    event_type: d?.eventType ?? '',
    // Null for a webhook.ping.
    transaction_id: d?.transactionId || null,
    // Null for the ad-hoc callback_url path.
    endpoint_id: d?.endpointId || null,
    url: d?.url ?? '',
    status: deliveryStatuses.nameOf(d?.status ?? DeliveryStatus.UNSPECIFIED) ?? 'pending',
    attempts: d?.attempts ?? 0,
    max_attempts: d?.maxAttempts ?? 0,
    retry_strategy: retryName(d?.retryStrategy ?? RetryStrategy.UNSPECIFIED),
    next_attempt_at: iso(d?.nextAttemptAt),
    last_attempt_at: iso(d?.lastAttemptAt),
    last_response_status: d?.lastResponseStatus || null,
    last_error: d?.lastError || null,
    created_at: iso(d?.createdAt),
    updated_at: iso(d?.updatedAt),
  };
}

export function attemptJson(a: DeliveryAttempt) {
  return {
    attempt_number: a.attemptNumber,
    trigger: a.trigger,
    started_at: iso(a.startedAt),
    duration_ms: a.durationMs,
    response_status: a.responseStatus || null,
    error_class: a.errorClass || null,
    error: a.error || null,
    resolved_address: a.resolvedAddress || null,
    response_excerpt: a.responseExcerpt || null,
    succeeded: a.succeeded,
  };
}
