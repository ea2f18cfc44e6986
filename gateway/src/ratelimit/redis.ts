import { runOutsideTrace } from '@qr-payout/platform/telemetry';
import type { Redis } from 'ioredis';
import { type ConsumeResult, decide, type RateLimiter } from './limiter';

// The checks of one event-loop turn go to Redis as one script call (ADR 0003). A script runs
// atomically, so each check and its record are atomic across replicas, checks of the same key in
// one call included (they are applied in order). Time comes from Redis (TIME, whole milliseconds)
// so every replica shares one clock. A call per check cost the gateway ~10 µs of ioredis work and
// Redis ~5 µs of script overhead per request; a call per turn pays those once for all its checks.
//
// The sliding-window log keeps one entry per millisecond that admitted requests, not one per
// request: requests recorded in the same millisecond are indistinguishable to every window check
// (entries at or before now - window have left the window), so counting them together is the same
// log. Memory per key is bounded by min(limit, window in ms) entries and a check costs a fixed
// handful of list operations whatever the limit (the per-request sorted set grew to the limit: a
// million members for a large tenant).
//
// A key is a list, oldest first, of "ms:count:cumulative" entries: `count` requests admitted in
// millisecond `ms`, `cumulative` the running total since the key was created, so the number in
// the window is tail.cumulative - (head.cumulative - head.count) and the request at any position is
// found by binary search. Times never go backwards in the list: should Redis' clock step back, a
// request is recorded in the newest millisecond, which keeps it counted longer, never shorter.
//
// KEYS: one per check; ARGV: limit and window (ms) per check, the limit negated for a peek (decide,
// record nothing). Returns, per check, five numbers: allowed (1/0), count, oldest, blocking, now
// (times in epoch ms, -1: none).
export const SLIDING_WINDOW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local function parse(entry)
  local ms, n, cum = string.match(entry, '^(%d+):(%d+):(%d+)$')
  return tonumber(ms), tonumber(n), tonumber(cum)
end

-- First index in [lo, hi] of key's list whose entry passes test (entries are in time order),
-- or hi + 1. Gallops from lo first: the usual answer is near the head.
local function firstIndex(key, lo, hi, test)
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

-- A key's log as the script sees it: trimmed to the window, its ends parsed. Admissions update
-- the newest entry here and reach Redis once per key and call (store), so a key checked many
-- times in one call costs a few list operations in all.
local function load(key, window)
  local cutoff = now - window
  local head = redis.call('LINDEX', key, 0)
  if head and parse(head) <= cutoff then
    -- Milliseconds have left the window: drop them with one trim.
    local last = redis.call('LLEN', key) - 1
    local keep = firstIndex(key, 1, last, function(entry) return parse(entry) > cutoff end)
    if keep > last then
      redis.call('DEL', key)
      head = nil
    else
      redis.call('LTRIM', key, keep, -1)
      head = redis.call('LINDEX', key, 0)
    end
  end
  local s = { key = key, window = window, base = 0, tailCum = 0, headCum = 0 }
  if head then
    local headMs, headCount, headCum = parse(head)
    local tail = redis.call('LINDEX', key, -1)
    s.headMs, s.headCum, s.base = headMs, headCum, headCum - headCount
    s.tailMs, s.tailCount, s.tailCum = parse(tail)
    s.headIsTail = tail == head
  end
  return s
end

local function store(s)
  if s.pending == 'set' then
    redis.call('LSET', s.key, -1, s.tailMs .. ':' .. s.tailCount .. ':' .. s.tailCum)
  elseif s.pending == 'push' then
    redis.call('RPUSH', s.key, s.tailMs .. ':' .. s.tailCount .. ':' .. s.tailCum)
    -- The key lives exactly as long as its newest entry counts.
    redis.call('PEXPIRE', s.key, s.window)
  end
  s.pending = nil
end

local function consume(s, limit, peek)
  local count = s.tailCum - s.base
  if count < limit and peek then return 1, count, s.headMs, -1 end
  if count < limit then
    if s.tailMs and s.tailMs >= now then
      s.tailCount = s.tailCount + 1
      if not s.pending then s.pending = 'set' end
    else
      s.tailMs, s.tailCount = now, 1
      s.pending = 'push'
      if not s.headMs then
        s.headMs = now
        s.headIsTail = true
      end
    end
    s.tailCum = s.tailCum + 1
    if s.headIsTail then s.headCum = s.tailCum end
    return 1, count + 1, s.headMs, -1
  end
  -- The request at position count - limit (0 = oldest) must leave before another is admitted.
  local target = s.base + (count - limit) + 1
  if target <= s.headCum then return 0, count, s.headMs, s.headMs end
  store(s)
  local last = redis.call('LLEN', s.key) - 1
  local at = firstIndex(s.key, 0, last, function(entry)
    local _, _, cum = parse(entry)
    return cum >= target
  end)
  return 0, count, s.headMs, (parse(redis.call('LINDEX', s.key, at)))
end

local logs = {}
local out = {}
for i = 1, #KEYS do
  local key, limit, window = KEYS[i], tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local peek = limit < 0
  if peek then limit = -limit end
  local s = logs[key]
  if s and s.window ~= window then
    store(s)
    s = nil
  end
  if not s then
    s = load(key, window)
    logs[key] = s
  end
  local allowed, count, oldest, blocking = consume(s, limit, peek)
  local at = 5 * (i - 1)
  out[at + 1] = allowed
  out[at + 2] = count
  out[at + 3] = oldest or -1
  out[at + 4] = blocking
  out[at + 5] = now
end
for _, s in pairs(logs) do store(s) end
return out
`;

const COMMAND = 'qrpSlidingWindowConsume';
/** Checks per script call at most: bounds how long one call holds Redis. */
export const MAX_CHECKS_PER_CALL = 128;

type WithCommand = Redis & {
  [COMMAND](keyCount: number, ...keysThenArgs: Array<string | number>): Promise<number[]>;
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

interface PendingCheck {
  key: string;
  limit: number;
  /** Decide only, record nothing (RateLimiter.peek). */
  peek: boolean;
  windowMs: number;
  resolve(result: ConsumeResult): void;
  reject(err: unknown): void;
}

/** The sliding-window log in Redis: the checks of one event-loop turn in one EVALSHA. */
export function createRedisRateLimiter(opts: RedisRateLimiterOptions): RateLimiter {
  const redis = opts.redis as WithCommand;
  if (typeof redis[COMMAND] !== 'function') {
    redis.defineCommand(COMMAND, { lua: SLIDING_WINDOW_LUA });
  }
  let batch: PendingCheck[] = [];

  function send(checks: PendingCheck[]): void {
    const keys = checks.map((check) => check.key);
    const args = checks.flatMap((check) => [check.peek ? -check.limit : check.limit, check.windowMs]);
    redis[COMMAND](checks.length, ...keys, ...args).then(
      (reply) => {
        checks.forEach((check, i) => {
          const [allowed, count, oldest, blocking, nowMs] = reply.slice(5 * i, 5 * i + 5) as number[];
          check.resolve(
            decide({
              allowed: allowed === 1,
              limit: check.limit,
              count: count as number,
              oldestMs: (oldest as number) >= 0 ? oldest : undefined,
              blockingMs: (blocking as number) >= 0 ? blocking : undefined,
              windowMs: check.windowMs,
              nowMs: nowMs as number,
            }),
          );
        });
      },
      (err: unknown) => {
        for (const check of checks) check.reject(err);
      },
    );
  }

  // Runs after the I/O callbacks of this turn, so every request read in it has queued its check.
  // Outside any trace: the call serves many requests, not the one whose check came first.
  function flush(): void {
    const checks = batch;
    batch = [];
    runOutsideTrace(() => {
      for (let from = 0; from < checks.length; from += MAX_CHECKS_PER_CALL) {
        send(checks.slice(from, from + MAX_CHECKS_PER_CALL));
      }
    });
  }

  function enqueue(key: string, limit: number, windowMs: number, peek: boolean): Promise<ConsumeResult> {
    return new Promise((resolve, reject) => {
      if (batch.length === 0) setImmediate(flush);
      batch.push({ key: rateLimitLogKey(opts.keyPrefix, key), limit, windowMs, peek, resolve, reject });
    });
  }

  return {
    consume: (key, limit, windowMs) => enqueue(key, limit, windowMs, false),
    peek: (key, limit, windowMs) => enqueue(key, limit, windowMs, true),
  };
}
