import { randomUUID } from 'node:crypto';
import type { Logger } from '@qr-payout/platform/log';
import type { Redis } from 'ioredis';
import type {
  BeginResult,
  CachedResponse,
  IdempotencyCache,
  IdempotencyLock,
  IdempotencyScope,
} from './cache';

// One hash per (tenant, key): state (running | done), fp (request fingerprint), token (the lock
// holder), created (Redis time in ms when first seen), status and body once done. Each step is one
// script, so two requests can never both take the lock or both see "no record".

// KEYS[1] record; ARGV fingerprint, token, lock ttl ms.
// Returns {'acquired'} | {'conflict'} | {'in_progress'} | {'replay', status, body}.
export const BEGIN_LUA = `
local record = KEYS[1]
local current = redis.call('HMGET', record, 'state', 'fp', 'status', 'body')
if not current[1] then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('HSET', record, 'state', 'running', 'fp', ARGV[1], 'token', ARGV[2], 'created', now)
  redis.call('PEXPIRE', record, ARGV[3])
  return {'acquired'}
end
if current[2] ~= ARGV[1] then return {'conflict'} end
if current[1] == 'running' then return {'in_progress'} end
return {'replay', current[3], current[4]}
`;

// KEYS[1] record; ARGV token, status, body, ttl ms (from first sight). 1 stored, 0 not the holder.
export const COMPLETE_LUA = `
local record = KEYS[1]
local current = redis.call('HMGET', record, 'state', 'token', 'created')
if current[1] ~= 'running' or current[2] ~= ARGV[1] then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local remaining = tonumber(current[3]) + tonumber(ARGV[4]) - now
if remaining <= 0 then
  redis.call('DEL', record)
  return 0
end
redis.call('HSET', record, 'state', 'done', 'status', ARGV[2], 'body', ARGV[3])
redis.call('HDEL', record, 'token')
redis.call('PEXPIRE', record, remaining)
return 1
`;

// KEYS[1] record; ARGV token. Deletes the record only while this token holds its lock.
export const RELEASE_LUA = `
local current = redis.call('HMGET', KEYS[1], 'state', 'token')
if current[1] == 'running' and current[2] == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

type IdempotencyCommands = {
  idempotencyBegin(record: string, fingerprint: string, token: string, lockTtlMs: number): Promise<string[]>;
  idempotencyComplete(
    record: string,
    token: string,
    status: number,
    body: string,
    ttlMs: number,
  ): Promise<number>;
  idempotencyRelease(record: string, token: string): Promise<number>;
};

export interface RedisIdempotencyCacheOptions {
  redis: Redis;
  keyPrefix: string;
  /** How long a lock lives when its holder never completes (crash): longer than a request can run. */
  lockTtlMs: number;
  /**
   * How long after first sight a response is kept: payout's idempotency-key lifetime
   * (GetExecutionSettings, 24 h), so the cache never replays a key payout has forgotten.
   */
  ttlMs: () => Promise<number>;
  logger: Logger;
}

export function createRedisIdempotencyCache(opts: RedisIdempotencyCacheOptions): IdempotencyCache {
  const redis = opts.redis as Redis & IdempotencyCommands;
  redis.defineCommand('idempotencyBegin', { numberOfKeys: 1, lua: BEGIN_LUA });
  redis.defineCommand('idempotencyComplete', { numberOfKeys: 1, lua: COMPLETE_LUA });
  redis.defineCommand('idempotencyRelease', { numberOfKeys: 1, lua: RELEASE_LUA });

  // Keys are per tenant (docs/api/resources.md "Authentication"): the tenant id is part of the
  // record name. The client's key goes in as sent: at most 255 printable ASCII characters, safe in
  // a Redis key.
  const recordKey = (scope: IdempotencyScope) => `${opts.keyPrefix}${scope.tenantId}:${scope.key}`;

  const warn = (err: unknown, step: string) =>
    opts.logger.warn(
      { err: { message: (err as Error)?.message }, step },
      'idempotency cache unavailable; payout decides',
    );

  return {
    async begin(scope, fingerprint): Promise<BeginResult> {
      const record = recordKey(scope);
      const token = randomUUID();
      let answer: string[];
      try {
        answer = await redis.idempotencyBegin(record, fingerprint, token, opts.lockTtlMs);
      } catch (err) {
        warn(err, 'begin');
        return { kind: 'unavailable' };
      }
      switch (answer[0]) {
        case 'acquired':
          return { kind: 'acquired', lock: { recordKey: record, token } };
        case 'conflict':
          return { kind: 'conflict' };
        case 'in_progress':
          return { kind: 'in_progress' };
        case 'replay': {
          const response = parseCached(answer[1], answer[2]);
          return response ? { kind: 'replay', response } : { kind: 'unavailable' };
        }
        default:
          return { kind: 'unavailable' };
      }
    },
    async complete(lock: IdempotencyLock, response: CachedResponse) {
      let ttlMs: number;
      try {
        ttlMs = await opts.ttlMs();
      } catch (err) {
        // payout's key lifetime is unknown: store nothing and free the key, payout decides.
        warn(err, 'complete');
        await redis.idempotencyRelease(lock.recordKey, lock.token).catch(() => undefined);
        return;
      }
      try {
        await redis.idempotencyComplete(
          lock.recordKey,
          lock.token,
          response.status,
          JSON.stringify(response.body),
          ttlMs,
        );
      } catch (err) {
        // The response was sent; the next replay goes to payout, which answers from its record.
        warn(err, 'complete');
      }
    },
    async release(lock: IdempotencyLock) {
      try {
        await redis.idempotencyRelease(lock.recordKey, lock.token);
      } catch (err) {
        // The lock expires after lockTtlMs; until then a retry gets 409 IdempotencyInProgress.
        warn(err, 'release');
      }
    },
  };
}

function parseCached(status: string | undefined, body: string | undefined): CachedResponse | undefined {
  const code = Number(status);
  if (!Number.isInteger(code) || body === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    return { status: code, body: parsed as Record<string, unknown> };
  } catch {
    return undefined;
  }
}
