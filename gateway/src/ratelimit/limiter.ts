// Rate limiting per key with a sliding-window log (ADR 0003): a request is admitted only when
// fewer than `limit` requests were admitted in the `windowMs` before it, so no window of that
// length ever holds more than `limit` admitted requests. Only admitted requests are recorded.

export interface ConsumeResult {
  allowed: boolean;
  limit: number;
  /** Requests still admissible right now (0 when refused). */
  remaining: number;
  /** When the oldest counted request leaves the window (epoch ms); now + window when none. */
  resetAtMs: number;
  /** 0 when allowed; otherwise how long until one slot frees up. */
  retryAfterMs: number;
  /** The limiter's clock at the decision (Redis TIME for the Redis limiter). */
  nowMs: number;
}

export interface RateLimiter {
  /**
   * Records one request under `key` when the window allows it. `nowMs` is honoured by the memory
   * limiter (tests); the Redis limiter uses Redis' clock so every replica agrees.
   */
  consume(key: string, limit: number, windowMs: number, nowMs?: number): Promise<ConsumeResult>;
  /**
   * What consume would decide now, recording nothing: a key whose window is full is refused with its
   * Retry-After; otherwise allowed, `remaining` counting this call as not made. For a lock-out
   * (docs/operators.md "Where the admin API and its token come from").
   */
  peek(key: string, limit: number, windowMs: number, nowMs?: number): Promise<ConsumeResult>;
}

export const RATE_LIMIT_WINDOW_MS = 60_000;

/** The decision for `count` admitted requests (after this one, when admitted) and the oldest one. */
export function decide(opts: {
  allowed: boolean;
  limit: number;
  count: number;
  oldestMs: number | undefined;
  /** Refused only: time of the entry whose exit lets count drop below limit (index count - limit). */
  blockingMs?: number | undefined;
  windowMs: number;
  nowMs: number;
}): ConsumeResult {
  const resetAtMs = (opts.oldestMs ?? opts.nowMs) + opts.windowMs;
  const freeAtMs = (opts.blockingMs ?? opts.oldestMs ?? opts.nowMs) + opts.windowMs;
  return {
    allowed: opts.allowed,
    limit: opts.limit,
    remaining: Math.max(0, opts.limit - opts.count),
    resetAtMs,
    retryAfterMs: opts.allowed ? 0 : Math.max(1, freeAtMs - opts.nowMs),
    nowMs: opts.nowMs,
  };
}
