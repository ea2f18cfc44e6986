import { type ConsumeResult, decide, type RateLimiter } from './limiter';

export interface MemoryRateLimiterOptions {
  /** Bound on the number of keys held; past it, idle keys and then the oldest keys go. */
  maxKeys?: number;
  now?: () => number;
}

/**
 * A key's log, like the Redis script's (redis.ts): one entry per millisecond that admitted
 * requests, oldest first from `head`, as parallel arrays. `cumulative` is the running total, so
 * the count in the window is cumulative[last] - (cumulative[head] - count[head]).
 */
interface KeyLog {
  ms: number[];
  count: number[];
  cumulative: number[];
  head: number;
  expiresAt: number;
}

/** Index of the first entry in [from, to] whose running total reaches `target` (it exists). */
function firstReaching(log: KeyLog, from: number, to: number, target: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((log.cumulative[mid] as number) >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The sliding-window log in process memory: the sandbox's limiter and the fallback while Redis is
 * unreachable. Same semantics and the same per-millisecond log as the Redis script (limiter.ts,
 * redis.ts), so a check costs the same whatever the limit.
 */
export function createMemoryRateLimiter(
  opts: MemoryRateLimiterOptions = {},
): RateLimiter & { readonly size: number } {
  const maxKeys = opts.maxKeys ?? 100_000;
  const now = opts.now ?? Date.now;
  // Map order is insertion order (oldest key first).
  const logs = new Map<string, KeyLog>();

  function evictIfFull(nowMs: number): void {
    if (logs.size < maxKeys) return;
    for (const [key, log] of logs) if (log.expiresAt <= nowMs) logs.delete(key);
    for (const key of logs.keys()) {
      if (logs.size < maxKeys) break;
      logs.delete(key);
    }
  }

  // Entries at or before now - window have left it (the Redis script's bound too).
  function dropExpired(log: KeyLog, cutoff: number): void {
    while (log.head < log.ms.length && (log.ms[log.head] as number) <= cutoff) log.head++;
    if (log.head === log.ms.length) {
      log.ms.length = 0;
      log.count.length = 0;
      log.cumulative.length = 0;
      log.head = 0;
    } else if (log.head > 1024 && log.head * 2 > log.ms.length) {
      log.ms.splice(0, log.head);
      log.count.splice(0, log.head);
      log.cumulative.splice(0, log.head);
      log.head = 0;
    }
  }

  function consumeNow(
    key: string,
    limit: number,
    windowMs: number,
    nowMs: number,
    record = true,
  ): ConsumeResult {
    let log = logs.get(key);
    if (!log) {
      evictIfFull(nowMs);
      log = { ms: [], count: [], cumulative: [], head: 0, expiresAt: 0 };
      logs.set(key, log);
    }
    dropExpired(log, nowMs - windowMs);
    const { head } = log;
    let last = log.ms.length - 1;
    const base = last >= head ? (log.cumulative[head] as number) - (log.count[head] as number) : 0;
    let count = last >= head ? (log.cumulative[last] as number) - base : 0;
    const allowed = count < limit;
    if (allowed && record) {
      // A caller-supplied clock may go backwards: record in the newest millisecond, as Redis does.
      if (last >= head && (log.ms[last] as number) >= nowMs) {
        log.count[last] = (log.count[last] as number) + 1;
        log.cumulative[last] = (log.cumulative[last] as number) + 1;
      } else {
        log.ms.push(nowMs);
        log.count.push(1);
        log.cumulative.push(base + count + 1);
        last++;
      }
      count++;
    }
    log.expiresAt = Math.max(log.expiresAt, (log.ms[last] as number) + windowMs);
    const oldestMs = log.ms[head];
    // Refused: the request at position count - limit (0 = oldest) must leave first.
    const blockingMs = allowed
      ? undefined
      : log.ms[firstReaching(log, head, last, base + (count - limit) + 1)];
    return decide({ allowed, limit, count, oldestMs, blockingMs, windowMs, nowMs });
  }

  return {
    async consume(key, limit, windowMs, nowMs) {
      return consumeNow(key, limit, windowMs, nowMs ?? now());
    },
    async peek(key, limit, windowMs, nowMs) {
      return consumeNow(key, limit, windowMs, nowMs ?? now(), false);
    },
    get size() {
      return logs.size;
    },
  };
}
