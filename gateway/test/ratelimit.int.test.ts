import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { testInfra } from '@qr-payout/test-kit/infra';
import { Redis } from 'ioredis';
import type pg from 'pg';
import pino from 'pino';
import { createFallbackRateLimiter } from '../src/ratelimit/fallback';
import { createMemoryRateLimiter } from '../src/ratelimit/memory';
import { createRedisRateLimiter, rateLimitLogKey } from '../src/ratelimit/redis';
import { randomSuffix, request, seedTenant, startTestGateway, type TestGateway } from './support';

// The Redis sliding-window limiter (ADR 0003) against a real Redis, keys under a random prefix;
// then the failed-key budget of a whole gateway, with Redis and with the sandbox's memory limiter.

const prefix = `test:gw-rl:${randomBytes(6).toString('hex')}:`;
let redis: Redis;

beforeAll(() => {
  redis = new Redis(testInfra.redisUrl, { enableOfflineQueue: true, commandTimeout: 2_000 });
});

/** The log of a limiter key: its per-millisecond entries, oldest first. */
async function logEntries(key: string): Promise<{ ms: number; count: number; cumulative: number }[]> {
  const entries = await redis.lrange(rateLimitLogKey(prefix, key), 0, -1);
  return entries.map((entry) => {
    const [ms, count, cumulative] = entry.split(':').map(Number);
    return { ms: ms!, count: count!, cumulative: cumulative! };
  });
}

/** Requests the log holds for a limiter key. */
async function storedRequests(key: string): Promise<number> {
  return (await logEntries(key)).reduce((n, entry) => n + entry.count, 0);
}

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('Redis sliding-window limiter', () => {
  it('admits 100, refuses the 101st with retryAfter, and stores only admitted requests', async () => {
    const limiter = createRedisRateLimiter({ redis, keyPrefix: prefix });
    for (let i = 0; i < 100; i++) {
      const r = await limiter.consume('seq', 100, 60_000);
      expect(r.allowed).toBe(true);
      expect(r.remaining).toBe(99 - i);
    }
    const refused = await limiter.consume('seq', 100, 60_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 100 });
    expect(refused.retryAfterMs).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(refused.resetAtMs).toBeGreaterThan(refused.nowMs);
    // Only admitted requests are stored; the key expires with the window.
    expect(await storedRequests('seq')).toBe(100);
    expect(await redis.pttl(rateLimitLogKey(prefix, 'seq'))).toBeGreaterThan(59_000);
  });

  it('peek decides as consume would and stores nothing', async () => {
    const limiter = createRedisRateLimiter({ redis, keyPrefix: prefix });
    expect(await limiter.peek('peek', 2, 60_000)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await storedRequests('peek')).toBe(0);
    await limiter.consume('peek', 2, 60_000);
    await limiter.consume('peek', 2, 60_000);
    const full = await limiter.peek('peek', 2, 60_000);
    expect(full).toMatchObject({ allowed: false, remaining: 0 });
    expect(full.retryAfterMs).toBeGreaterThanOrEqual(1);
    expect(await storedRequests('peek')).toBe(2);
  });

  it('slides: a slot frees exactly when the oldest request leaves the window', async () => {
    const limiter = createRedisRateLimiter({ redis, keyPrefix: prefix });
    const window = 600;
    const first = await limiter.consume('slide', 2, window);
    await delay(200);
    await limiter.consume('slide', 2, window);
    const refused = await limiter.consume('slide', 2, window);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(first.nowMs + window - refused.nowMs);
    await delay(refused.retryAfterMs + 20);
    const again = await limiter.consume('slide', 2, window);
    expect(again.allowed).toBe(true);
    // The second request is still in the window, so this one took the last slot.
    expect(again.remaining).toBe(0);
    expect((await limiter.consume('slide', 2, window)).allowed).toBe(false);
  });

  it('admits exactly the limit out of 150 concurrent requests from several clients', async () => {
    const clients = [redis, new Redis(testInfra.redisUrl), new Redis(testInfra.redisUrl)];
    try {
      const limiters = clients.map((c) => createRedisRateLimiter({ redis: c, keyPrefix: prefix }));
      const results = await Promise.all(
        Array.from({ length: 150 }, (_, i) =>
          (limiters[i % limiters.length] as (typeof limiters)[0]).consume('burst', 100, 60_000),
        ),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(100);
      expect(results.filter((r) => !r.allowed).every((r) => r.retryAfterMs >= 1)).toBe(true);
      expect(await storedRequests('burst')).toBe(100);
      // One entry per millisecond, in time order, with a running total that ends at the count.
      const entries = await logEntries('burst');
      expect(entries.length).toBeLessThanOrEqual(100);
      for (let i = 1; i < entries.length; i++) {
        expect(entries[i]!.ms).toBeGreaterThan(entries[i - 1]!.ms);
        expect(entries[i]!.cumulative).toBe(entries[i - 1]!.cumulative + entries[i]!.count);
      }
      expect(entries.at(-1)!.cumulative - entries[0]!.cumulative + entries[0]!.count).toBe(100);
    } finally {
      for (const c of clients.slice(1)) c.disconnect();
    }
  });

  it('sends the checks of one event-loop turn in one call, applied in order, each on its own key', async () => {
    const limiter = createRedisRateLimiter({ redis, keyPrefix: prefix });
    const results = await Promise.all([
      limiter.consume('turn-a', 3, 60_000),
      limiter.consume('turn-b', 3, 60_000),
      limiter.consume('turn-a', 3, 60_000),
      limiter.consume('turn-a', 3, 60_000),
      limiter.consume('turn-a', 3, 60_000),
      // The same key with a lower limit, after three admissions in this very call.
      limiter.consume('turn-b', 1, 60_000),
    ]);
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    // One script call: one Redis clock reading for all.
    expect(new Set(results.map((r) => r.nowMs)).size).toBe(1);
    expect(results[4]!.retryAfterMs).toBe(60_000);
    expect(await storedRequests('turn-a')).toBe(3);
    expect(await storedRequests('turn-b')).toBe(1);
  });

  it('after a lowered limit, frees a slot only when enough of the older requests have left', async () => {
    const limiter = createRedisRateLimiter({ redis, keyPrefix: prefix });
    const admitted = [];
    for (let i = 0; i < 4; i++) {
      admitted.push(await limiter.consume('lowered', 10, 60_000));
      await delay(3);
    }
    expect(admitted.every((r) => r.allowed)).toBe(true);
    const refused = await limiter.consume('lowered', 2, 60_000);
    expect(refused).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    // 4 in the window, limit 2: the third oldest (position 2) must leave before one more fits.
    expect(refused.retryAfterMs).toBe(admitted[2]!.nowMs + 60_000 - refused.nowMs);
    expect(refused.resetAtMs).toBe(admitted[0]!.nowMs + 60_000);
    expect(await storedRequests('lowered')).toBe(4);
  });

  it('drops every millisecond that left the window at once, and the whole key when all did', async () => {
    const limiter = createRedisRateLimiter({ redis, keyPrefix: prefix });
    const window = 400;
    for (let i = 0; i < 3; i++) {
      await limiter.consume('trim', 100, window);
      await delay(2);
    }
    await delay(250);
    for (let i = 0; i < 3; i++) {
      await limiter.consume('trim', 100, window);
      await delay(2);
    }
    // ~500 ms after the first three: they have left the window, the last three (~250 ms) have not.
    await delay(250);
    const partly = await limiter.consume('trim', 100, window);
    expect(partly).toMatchObject({ allowed: true, remaining: 96 });
    expect(await storedRequests('trim')).toBe(4);

    await delay(window + 50);
    const fresh = await limiter.consume('trim', 100, window);
    expect(fresh).toMatchObject({ allowed: true, remaining: 99 });
    expect(await logEntries('trim')).toHaveLength(1);
  });

  it('falls back to per-process limits when Redis is unreachable, and logs it once', async () => {
    // A port that accepts nothing: bind, note the port, close.
    const closedPort = await new Promise<number>((resolve) => {
      const server: Server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const down = new Redis(`redis://127.0.0.1:${closedPort}`, {
      enableOfflineQueue: false,
      commandTimeout: 100,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 1_000,
    });
    down.on('error', () => undefined);
    const lines: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, cb) {
          lines.push(JSON.parse(chunk.toString()));
          cb();
        },
      }),
    );
    try {
      const limiter = createFallbackRateLimiter({
        primary: createRedisRateLimiter({ redis: down, keyPrefix: prefix }),
        fallback: createMemoryRateLimiter(),
        logger,
      });
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await limiter.consume('down', 3, 60_000));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
      expect(limiter.degraded).toBe(true);
      expect(lines.filter((l) => l.level === 40 && /Redis unreachable/.test(l.msg))).toHaveLength(1);
    } finally {
      down.disconnect();
    }
  });
});

// docs/api/rate-limits.md "Failed API keys": the failed-key budget slows the failing attempts,
// never valid keys. Every request of this test comes from 127.0.0.1, the one address (a NAT, a
// carrier's CGNAT) of several tenants.
describe.each([
  ['redis', {}],
  ['memory (sandbox)', { RATE_LIMIT_BACKEND: 'memory', REDIS_URL: undefined }],
] as const)('failed-key budget of the gateway, %s limiter', (backend, envOverride) => {
  // AUTH_FAILURE_LIMIT is 5 in the test env (support.ts).
  const FAILURE_LIMIT = 5;
  let world: TestGateway;
  let pool: pg.Pool;
  let base: string;

  beforeAll(async () => {
    world = await startTestGateway({ schemaPrefix: 'gw_authfail', env: envOverride });
    ({ pool, base } = world);
  }, 30_000);

  afterAll(async () => {
    if (!world) return;
    await world.stop();
    const keys = await redis.keys(`${world.redisPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });

  const schemes = (apiKey?: string) =>
    request(base, '/v1/schemes', { headers: apiKey === undefined ? {} : { 'x-api-key': apiKey } });
  const badKey = () => `qrp_${randomSuffix().slice(0, 8)}_${randomBytes(16).toString('hex')}`;

  it('refuses bad keys 429 over the budget while a valid key of another tenant is served at the same moment', async () => {
    const busy = await seedTenant(pool);
    const other = await seedTenant(pool, { rateLimitPerMinute: 40 });

    // Failures and valid requests interleaved: valid requests neither spend nor reset the budget.
    const statuses: number[] = [];
    for (let i = 0; i < FAILURE_LIMIT; i++) {
      statuses.push((await schemes(badKey())).status);
      statuses.push((await schemes(busy.apiKey)).status);
    }
    expect(statuses).toEqual(Array.from({ length: FAILURE_LIMIT }, () => [401, 200]).flat());
    if (backend === 'redis') {
      const failures = await redis.lrange(rateLimitLogKey(world.redisPrefix, 'authfail:127.0.0.1'), 0, -1);
      expect(failures.reduce((n, entry) => n + Number(entry.split(':')[1]), 0)).toBe(FAILURE_LIMIT);
    }

    const refused = await schemes(badKey());
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ _tag: 'RateLimitError', retryAfter: expect.any(Number) });
    expect(refused.json().retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('retry-after')).toBe(String(refused.json().retryAfter));
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(FAILURE_LIMIT));

    // At the same moment: a flood of bad keys and the other tenant's first request ever.
    const [valid, ...flood] = await Promise.all([
      schemes(other.apiKey),
      ...Array.from({ length: 20 }, () => schemes(badKey())),
    ]);
    expect(flood.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 429));
    expect(flood.every((r) => r.json().retryAfter >= 1)).toBe(true);
    expect(valid!.status).toBe(200);
    // The valid key's own limit, untouched by its address's failures.
    expect(valid!.headers.get('x-ratelimit-limit')).toBe('40');
    expect(valid!.headers.get('x-ratelimit-remaining')).toBe('39');
    expect(valid!.headers.get('ratelimit-policy')).toBe('"default";q=40;w=60');
    expect(valid!.headers.get('retry-after')).toBeNull();

    // And the busy tenant's: its sixth request of the minute.
    const again = await schemes(busy.apiKey);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-limit')).toBe('100');
    expect(again.headers.get('x-ratelimit-remaining')).toBe(String(100 - FAILURE_LIMIT - 1));

    // Bad keys are still refused; a missing key is told it is missing.
    expect((await schemes(badKey())).status).toBe(429);
    const missing = await schemes();
    expect(missing.status).toBe(401);
    expect(missing.json().message).toMatch(/Missing API key/);
  }, 30_000);
});
