import { Writable } from 'node:stream';
import pino from 'pino';
import { createFallbackRateLimiter } from './fallback';
import type { RateLimiter } from './limiter';
import { createMemoryRateLimiter } from './memory';

function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(chunk.toString()));
      cb();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('fallback rate limiter', () => {
  it('serves from memory while the primary fails, logs the outage once and the recovery', async () => {
    let down = true;
    const healthy = createMemoryRateLimiter();
    const primary: RateLimiter = {
      consume: async (...args) => {
        if (down) throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
        return healthy.consume(...args);
      },
      peek: async (...args) => {
        if (down) throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
        return healthy.peek(...args);
      },
    };
    let clock = 0;
    const { logger, lines } = capturingLogger();
    const limiter = createFallbackRateLimiter({
      primary,
      fallback: createMemoryRateLimiter(),
      logger,
      probeIntervalMs: 1000,
      now: () => clock,
    });

    const results = [];
    for (let i = 0; i < 5; i++) results.push(await limiter.consume('k', 3, 60_000, i));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(limiter.degraded).toBe(true);
    expect(lines.filter((l) => l.level === 40)).toHaveLength(1);

    down = false;
    clock = 2000;
    expect((await limiter.consume('k', 3, 60_000, 10)).allowed).toBe(true);
    expect(limiter.degraded).toBe(false);
    expect(lines.filter((l) => l.level === 30 && /reachable again/.test(l.msg))).toHaveLength(1);
  });
});
