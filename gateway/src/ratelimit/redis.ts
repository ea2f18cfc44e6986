import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type ConsumeResult, decide, type RateLimiter } from './limiter';

// One script per request (ADR 0003), so the check and the record are atomic across replicas.
// Time comes from Redis (TIME) so every replica shares one clock. Entries at or before
// now - window have left the window. The member is unique per request (ms + caller nonce).
// Returns { allowed, count, oldest, blocking, now } with times in epoch ms.
export const SLIDING_WINDOW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local blocking = -1
if allowed == 0 then
  local entry = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  if entry[2] then blocking = tonumber(entry[2]) end
end
local oldestScore = -1
if oldest[2] then oldestScore = tonumber(oldest[2]) end
return { allowed, count, oldestScore, blocking, now }
`;

const COMMAND = 'qrpSlidingWindowConsume';

type ScriptReply = [number, number, number, number, number];
type WithCommand = Redis & {
  [COMMAND](key: string, limit: number, windowMs: number, nonce: string): Promise<ScriptReply>;
};

export interface RedisRateLimiterOptions {
  redis: Redis;
  /** Namespace of the limiter's keys (tests use a random one). */
  keyPrefix: string;
}

/** The sliding-window log in Redis, one EVALSHA per consume (ioredis defineCommand). */
export function createRedisRateLimiter(opts: RedisRateLimiterOptions): RateLimiter {
  const redis = opts.redis as WithCommand;
  if (typeof redis[COMMAND] !== 'function') {
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
  }
  // Unique members without a random call per request: a per-process id plus a counter.
  const processId = randomBytes(6).toString('hex');
  let counter = 0;

  return {
    async consume(key, limit, windowMs): Promise<ConsumeResult> {
      counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
      const [allowed, count, oldest, blocking, nowMs] = await redis[COMMAND](
        opts.keyPrefix + key,
        limit,
        windowMs,
        `${processId}:${counter}`,
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
