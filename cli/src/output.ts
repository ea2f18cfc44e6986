import { type Timestamp, timestampDate } from '@bufbuild/protobuf/wkt';
import type { ApiKey, Tenant } from '@qr-payout/proto/payout/admin/v1/admin_pb';
import { type Endpoint, RetryStrategy } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';

// The CLI's JSON shapes: snake_case, ISO 8601 timestamps, null for "not set".

function iso(ts: Timestamp | undefined): string | null {
  return ts ? timestampDate(ts).toISOString() : null;
}

export function tenantJson(t: Tenant | undefined) {
  return {
    tenant_id: t?.id ?? '',
    name: t?.name ?? '',
    // 0 on the wire means "the gateway's default".
    rate_limit_per_minute: t?.rateLimitPerMinute || null,
    created_at: iso(t?.createdAt),
  };
}

export function apiKeyJson(k: ApiKey | undefined) {
  return {
    key_prefix: k?.prefix ?? '',
    tenant_id: k?.tenantId ?? '',
    created_at: iso(k?.createdAt),
    revoked_at: iso(k?.revokedAt),
  };
}

export function retryName(strategy: RetryStrategy): 'standard' | 'extended' {
  return strategy === RetryStrategy.EXTENDED ? 'extended' : 'standard';
}

export function endpointJson(e: Endpoint | undefined) {
  return {
    endpoint_id: e?.id ?? '',
    tenant_id: e?.tenantId ?? '',
    url: e?.url ?? '',
    event_types: e?.eventTypes ?? [],
    header_names: e?.headerNames ?? [],
    retry: retryName(e?.retryStrategy ?? RetryStrategy.UNSPECIFIED),
    enabled: e?.enabled ?? false,
    disabled_reason: e?.disabledReason || null,
    created_at: iso(e?.createdAt),
  };
}
