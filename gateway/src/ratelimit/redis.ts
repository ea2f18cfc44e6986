import type { Redis } from 'ioredis';
import { type ConsumeResult, decide, type RateLimiter } from './limiter';

// One script per request (ADR 0003), so the check and the record are atomic across replicas.
// Time comes from Redis (TIME, in whole milliseconds) so every replica shares one clock.
//
// The sliding-window log keeps one entry per millisecond that admitted requests, not one per
// request: requests recorded in the same millisecond are indistinguishable to every window check
// (entries at or before now - window have left the window), so counting them together is the same
// log. Memory per key is bounded by min(limit, window in ms) entries, and a request costs a fixed
// handful of list operations whatever the limit: the per-request log grew to the limit (a sorted
// set of up to a million members for a large tenant) and cost ~3x more Redis CPU per request.
//
// The key is a list, oldest first, of "ms:count:cumulative" entries: `count` requests admitted in
// millisecond `ms`, `cumulative` the running total since the key was created, so the number in
// the window is tail.cumulative - (head.cumulative - head.count) and the request at any position is
// found by binary search. Times never go backwards in the list: should Redis' clock step back, a
// request is recorded in the newest millisecond, which keeps it counted longer, never shorter.
//
// Returns { allowed, count, oldest, blocking, now } with times in epoch ms (-1: none).
export const SLIDING_WINDOW_LUA = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cutoff = now - window

local function parse(entry)
  local ms, n, cum = string.match(entry, '^(%d+):(%d+):(%d+)$')
  return tonumber(ms), tonumber(n), tonumber(cum)
end

-- First index in [lo, hi] whose entry satisfies test (entries are in time order), or hi + 1.
local function firstIndex(lo, hi, test)
  -- Gallop from lo first: the usual answer is near the head (one millisecond left the window).
  local step = 1
  local top = lo
  while top <= hi and not test(redis.call('LINDEX', key, top)) do
    lo = top + 1
    top = top + step
    step = step * 2
  end
  if top <= hi then hi = top else hi = hi + 1 end
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if test(redis.call('LINDEX', key, mid)) then hi = mid else lo = mid + 1 end
  end
  return lo
end

local head = redis.call('LINDEX', key, 0)
if head and parse(head) <= cutoff then
  -- Milliseconds have left the window: drop them with one trim.
  local last = redis.call('LLEN', key) - 1
  local keep = firstIndex(1, last, function(entry) return parse(entry) > cutoff end)
  if keep > last then
    redis.call('DEL', key)
    head = nil
  else
    redis.call('LTRIM', key, keep, -1)
    head = redis.call('LINDEX', key, 0)
  end
end

local count = 0
local headMs, headCount, headCum, tailMs, tailCount, tailCum
if head then
  headMs, headCount, headCum = parse(head)
  tailMs, tailCount, tailCum = parse(redis.call('LINDEX', key, -1))
  count = tailCum - (headCum - headCount)
end

local allowed = 0
local blocking = -1
if count < limit then
  allowed = 1
  count = count + 1
  if tailMs and tailMs >= now then
    redis.call('LSET', key, -1, tailMs .. ':' .. (tailCount + 1) .. ':' .. (tailCum + 1))
  else
    redis.call('RPUSH', key, now .. ':1:' .. ((tailCum or 0) + 1))
    -- The key lives exactly as long as its newest entry counts (set once per new millisecond).
    redis.call('PEXPIRE', key, window)
    if not headMs then headMs = now end
  end
else
  -- The request at position count - limit (0 = oldest) must leave before another is admitted.
  local target = headCum - headCount + (count - limit) + 1
  if target <= headCum then
    blocking = headMs
  else
    local last = redis.call('LLEN', key) - 1
    local at = firstIndex(1, last, function(entry)
      local _, _, cum = parse(entry)
      return cum >= target
    end)
    blocking = parse(redis.call('LINDEX', key, at))
  end
end
return { allowed, count, headMs or -1, blocking, now }
`;

const COMMAND = 'qrpSlidingWindowConsume';

type ScriptReply = [number, number, number, number, number];
type WithCommand = Redis & {
  [COMMAND](key: string, limit: number, windowMs: number): Promise<ScriptReply>;
};

export interface RedisRateLimiterOptions {
  redis: Redis;
  /** Namespace of the limiter's keys (tests use a random one). */
  keyPrefix: string;
}

/**
 * Redis key of a limiter key's log. The `:ms` suffix names the per-millisecond list, so replicas
 * still running the earlier per-request sorted set during a rollout use other keys, not the same
 * key with another type.
 */
export function rateLimitLogKey(keyPrefix: string, key: string): string {
  return `${keyPrefix}${key}:ms`;
}

/** The sliding-window log in Redis, one EVALSHA per consume (ioredis defineCommand). */
export function createRedisRateLimiter(opts: RedisRateLimiterOptions): RateLimiter {
  const redis = opts.redis as WithCommand;
  if (typeof redis[COMMAND] !== 'function') {
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
  }

  return {
    async consume(key, limit, windowMs): Promise<ConsumeResult> {
      const [allowed, count, oldest, blocking, nowMs] = await redis[COMMAND](
        rateLimitLogKey(opts.keyPrefix, key),
        limit,
        windowMs,
      );
      return decide({
        allowed: allowed === 1,
        limit,
        count,
        oldestMs: oldest >= 0 ? oldest : undefined,
        blockingMs: blocking >= 0 ? blocking : undefined,
        windowMs,
        nowMs,
      });
    },
  };
}
