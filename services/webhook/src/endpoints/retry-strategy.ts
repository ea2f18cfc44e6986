import { RetryStrategy } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';

// Retry strategies of docs/api/webhooks.md "Retries", stored by name in endpoints.retry_strategy.
export type RetryStrategyName = 'standard' | 'extended';

/** Unspecified means standard, the default (docs/api/webhooks.md "Retries"). */
export function retryStrategyName(strategy: RetryStrategy): RetryStrategyName | undefined {
  switch (strategy) {
    case RetryStrategy.UNSPECIFIED:
    case RetryStrategy.STANDARD:
      return 'standard';
    case RetryStrategy.EXTENDED:
      return 'extended';
    default:
      return undefined;
  }
}

export function retryStrategyOf(name: RetryStrategyName): RetryStrategy {
  return name === 'extended' ? RetryStrategy.EXTENDED : RetryStrategy.STANDARD;
}
