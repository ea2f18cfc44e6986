import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createFallbackRateLimiter } from '../src/ratelimit/fallback';
import { createMemoryRateLimiter } from '../src/ratelimit/memory';
import { createRedisRateLimiter } from '../src/ratelimit/redis';

// The Redis sliding-window limiter (ADR 0003) against a real Redis, keys under a random prefix.

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:56379';
const prefix = `test:gw-rl:${randomBytes(6).toString('hex')}:`;
let redis: Redis;

beforeAll(() => {
  redis = new Redis(REDIS_URL, { enableOfflineQueue: true, commandTimeout: 2_000 });
});

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
    expect(await redis.zcard(`${prefix}seq`)).toBe(100);
    expect(await redis.pttl(`${prefix}seq`)).toBeGreaterThan(59_000);
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
    const clients = [redis, new Redis(REDIS_URL), new Redis(REDIS_URL)];
    try {
      const limiters = clients.map((c) => createRedisRateLimiter({ redis: c, keyPrefix: prefix }));
      const results = await Promise.all(
        Array.from({ length: 150 }, (_, i) =>
          (limiters[i % limiters.length] as (typeof limiters)[0]).consume('burst', 100, 60_000),
        ),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(100);
      expect(results.filter((r) => !r.allowed).every((r) => r.retryAfterMs >= 1)).toBe(true);
      expect(await redis.zcard(`${prefix}burst`)).toBe(100);
    } finally {
      for (const c of clients.slice(1)) c.disconnect();
    }
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
