import type { Logger } from 'pino';
import type { ConsumeResult, RateLimiter } from './limiter';

export interface FallbackRateLimiterOptions {
  primary: RateLimiter;
  fallback: RateLimiter;
  logger: Logger;
  /** While degraded, how often one request tries the primary again. */
  probeIntervalMs?: number;
  now?: () => number;
}

/**
 * Keeps serving when Redis is unreachable (ADR 0003): a failed or timed-out Redis call falls back
 * to the per-process limiter, logged once per outage, and the recovery is logged too. While
 * degraded only one request per probe interval tries Redis, so an outage adds no latency.
 */
export function createFallbackRateLimiter(opts: FallbackRateLimiterOptions): RateLimiter & {
  readonly degraded: boolean;
} {
  const probeIntervalMs = opts.probeIntervalMs ?? 1_000;
  const now = opts.now ?? Date.now;
  let degraded = false;
  let nextProbeAt = 0;

  type Check = (limiter: RateLimiter) => Promise<ConsumeResult>;
  async function check(run: Check): Promise<ConsumeResult> {
    if (degraded && now() < nextProbeAt) return run(opts.fallback);
    try {
      const result = await run(opts.primary);
      if (degraded) {
        degraded = false;
        opts.logger.info('rate limiter: Redis reachable again, per-key limits are global again');
      }
      return result;
    } catch (err) {
      nextProbeAt = now() + probeIntervalMs;
      if (!degraded) {
        degraded = true;
        opts.logger.warn(
          { err: { message: (err as Error)?.message } },
          'rate limiter: Redis unreachable, using per-process limits until it is back',
        );
      }
      return run(opts.fallback);
    }
  }

  return {
    consume: (key, limit, windowMs, nowMs) => check((l) => l.consume(key, limit, windowMs, nowMs)),
    peek: (key, limit, windowMs, nowMs) => check((l) => l.peek(key, limit, windowMs, nowMs)),
    get degraded() {
      return degraded;
    },
  };
}
