import type { ConsumeResult } from './limiter';

/** Whole seconds, at least 1, for retryAfter and Retry-After (docs/api/errors.md "Error names"). */
export function retryAfterSeconds(result: Pick<ConsumeResult, 'retryAfterMs'>): number {
  return Math.max(1, Math.ceil(result.retryAfterMs / 1000));
}

/**
 * Rate-limit headers of every authenticated response: docs/api/rate-limits.md "Per key"'s
 * x-ratelimit-* (reset in Unix seconds) and the IETF draft-ietf-httpapi-ratelimit-headers
 * structured fields.
 */
export function rateLimitHeaders(result: ConsumeResult, windowMs: number): Record<string, string> {
  const resetSeconds = Math.ceil(result.resetAtMs / 1000);
  const secondsToReset = Math.max(0, Math.ceil((result.resetAtMs - result.nowMs) / 1000));
  const remaining = String(result.remaining);
  return {
    'x-ratelimit-limit': String(result.limit),
    'x-ratelimit-remaining': remaining,
    'x-ratelimit-reset': String(resetSeconds),
    'ratelimit-policy': `"default";q=${result.limit};w=${Math.round(windowMs / 1000)}`,
    ratelimit: `"default";r=${remaining};t=${secondsToReset}`,
  };
}
