import { type ConsumeResult, decide, type RateLimiter } from './limiter';

export interface MemoryRateLimiterOptions {
  /** Bound on the number of keys held; past it, idle keys and then the oldest keys go. */
  maxKeys?: number;
  now?: () => number;
}

/**
 * The sliding-window log in process memory: the sandbox's limiter and the fallback while Redis is
 * unreachable. Same semantics as the Redis script (see limiter.ts).
 */
export function createMemoryRateLimiter(
  opts: MemoryRateLimiterOptions = {},
): RateLimiter & { readonly size: number } {
  const maxKeys = opts.maxKeys ?? 100_000;
  const now = opts.now ?? Date.now;
  // Admitted request times per key, ascending; Map order is insertion order (oldest key first).
  const logs = new Map<string, { times: number[]; expiresAt: number }>();

  function evictIfFull(nowMs: number): void {
    if (logs.size < maxKeys) return;
    for (const [key, log] of logs) if (log.expiresAt <= nowMs) logs.delete(key);
    for (const key of logs.keys()) {
      if (logs.size < maxKeys) break;
      logs.delete(key);
    }
  }

  function consumeNow(key: string, limit: number, windowMs: number, nowMs: number): ConsumeResult {
    let log = logs.get(key);
    if (!log) {
      evictIfFull(nowMs);
      log = { times: [], expiresAt: 0 };
      logs.set(key, log);
    }
    // Entries at or before now - window have left it (same bound as ZREMRANGEBYSCORE -inf now-window).
    const cutoff = nowMs - windowMs;
    let expired = 0;
    while (expired < log.times.length && (log.times[expired] as number) <= cutoff) expired++;
    if (expired > 0) log.times.splice(0, expired);
    const allowed = log.times.length < limit;
    if (allowed) {
      // A caller-supplied clock may go backwards; keep the log sorted.
      let at = log.times.length;
      while (at > 0 && (log.times[at - 1] as number) > nowMs) at--;
      log.times.splice(at, 0, nowMs);
    }
    log.expiresAt = Math.max(log.expiresAt, nowMs + windowMs);
    const count = log.times.length;
    const blockingMs = allowed ? undefined : log.times[count - limit];
    return decide({ allowed, limit, count, oldestMs: log.times[0], blockingMs, windowMs, nowMs });
  }

  return {
    async consume(key, limit, windowMs, nowMs) {
      return consumeNow(key, limit, windowMs, nowMs ?? now());
    },
    get size() {
      return logs.size;
    },
  };
}
