import { type RetryStrategyName, retryStrategies } from '@qr-payout/platform/vocabulary';
import { RetryStrategy } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';

// Retry strategies of docs/api/webhooks.md "Retries", stored by name in endpoints.retry_strategy;
// the names are the platform vocabulary's one list.
export type { RetryStrategyName };

/** Unspecified means standard, the default (docs/api/webhooks.md "Retries"). */
export function retryStrategyName(strategy: RetryStrategy): RetryStrategyName | undefined {
  if (strategy === RetryStrategy.UNSPECIFIED) return 'standard';
  return retryStrategies.nameOf(strategy);
}

export function retryStrategyOf(name: RetryStrategyName): RetryStrategy {
  return retryStrategies.toProto(name);
}
