import { timestampDate } from '@bufbuild/protobuf/wkt';
import { type RetryStrategyName, retryStrategies } from '@qr-payout/platform/vocabulary';
import type { Endpoint } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';

export interface PublicWebhookEndpoint {
  id: string;
  url: string;
  event_types: string[];
  header_names: string[];
  retry_strategy: RetryStrategyName;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
}

/**
 * A webhook endpoint as the API shows it (docs/api/resources.md "Webhook endpoints"): custom header
 * names only, never their values (the webhook service does not even return them).
 */
export function toPublicWebhookEndpoint(endpoint: Endpoint): PublicWebhookEndpoint {
  return {
    id: endpoint.id,
    url: endpoint.url,
    event_types: endpoint.eventTypes,
    header_names: endpoint.headerNames,
    retry_strategy: retryStrategies.nameOf(endpoint.retryStrategy) ?? 'standard',
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason || null,
    created_at: endpoint.createdAt ? timestampDate(endpoint.createdAt).toISOString() : '',
  };
}
