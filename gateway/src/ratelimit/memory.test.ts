import fc from 'fast-check';
import { createMemoryRateLimiter } from './memory';

const WINDOW = 60_000;

describe('memory sliding-window limiter', () => {
  it('admits the limit, refuses the next with the time until the oldest leaves, then slides', async () => {
    const limiter = createMemoryRateLimiter();
    const t0 = 1_700_000_000_000;
    for (let i = 0; i < 100; i++) {
      const r = await limiter.consume('k', 100, WINDOW, t0 + i * 10);
      expect(r).toMatchObject({ allowed: true, remaining: 99 - i, resetAtMs: t0 + WINDOW });
    }
    const refused = await limiter.consume('k', 100, WINDOW, t0 + 30_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 30_000 });
    // The first request leaves exactly one window after it was admitted.
    expect((await limiter.consume('k', 100, WINDOW, t0 + WINDOW - 1)).allowed).toBe(false);
    const slid = await limiter.consume('k', 100, WINDOW, t0 + WINDOW);
    expect(slid).toMatchObject({ allowed: true, remaining: 0, resetAtMs: t0 + 10 + WINDOW });
  });

  it('peek decides as consume would and records nothing', async () => {
    const limiter = createMemoryRateLimiter();
    expect(await limiter.peek('p', 2, WINDOW, 0)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await limiter.peek('p', 2, WINDOW, 1)).toMatchObject({ allowed: true, remaining: 2 });
    await limiter.consume('p', 2, WINDOW, 10);
    await limiter.consume('p', 2, WINDOW, 20);
    expect(await limiter.peek('p', 2, WINDOW, 30)).toMatchObject({
      allowed: false,
      retryAfterMs: WINDOW - 20,
    });
    // The peeks left no entry: the window frees at the first consume's exit.
    expect(await limiter.peek('p', 2, WINDOW, WINDOW + 10)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps keys apart', async () => {
    const limiter = createMemoryRateLimiter();
    expect((await limiter.consume('a', 1, WINDOW, 0)).allowed).toBe(true);
    expect((await limiter.consume('a', 1, WINDOW, 1)).allowed).toBe(false);
    expect((await limiter.consume('b', 1, WINDOW, 1)).allowed).toBe(true);
  });

  it('after a lowered limit, retryAfter waits until enough entries have left', async () => {
    const limiter = createMemoryRateLimiter();
    for (let i = 0; i < 5; i++) await limiter.consume('k', 5, WINDOW, i * 1000);
    const r = await limiter.consume('k', 2, WINDOW, 10_000);
    // 5 counted, limit 2: the 4th oldest (t=3000) must leave before one more fits.
    expect(r).toMatchObject({ allowed: false, retryAfterMs: 3000 + WINDOW - 10_000 });
  });

  it('never admits more than the limit in any 60-second span (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 5 * WINDOW }), { minLength: 1, maxLength: 300 }),
        async (limit, rawTimes) => {
          const limiter = createMemoryRateLimiter();
          const times = [...rawTimes].sort((a, b) => a - b);
          const admitted: number[] = [];
          for (const t of times) {
            const r = await limiter.consume('k', limit, WINDOW, t);
            if (r.allowed) admitted.push(t);
            expect(r.remaining).toBeGreaterThanOrEqual(0);
            if (!r.allowed) expect(r.retryAfterMs).toBeGreaterThan(0);
          }
          // Every span (t - 60 s, t] ending at an admitted request holds at most `limit` of them.
          for (const end of admitted) {
            const inSpan = admitted.filter((t) => t > end - WINDOW && t <= end).length;
            expect(inSpan).toBeLessThanOrEqual(limit);
          }
          // And it is not stricter than needed: a refused request saw `limit` admitted in its span.
          for (const t of times) {
            const inSpan = admitted.filter((a) => a > t - WINDOW && a <= t).length;
            if (!admitted.includes(t)) expect(inSpan).toBe(limit);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('records a request from a clock that stepped back in the newest millisecond: counted longer, never shorter', async () => {
    const limiter = createMemoryRateLimiter();
    expect((await limiter.consume('k', 2, WINDOW, 1_000)).allowed).toBe(true);
    expect((await limiter.consume('k', 2, WINDOW, 500)).allowed).toBe(true);
    // Had it been recorded at 500 it would have left by now; it counts until 1000 + window.
    expect((await limiter.consume('k', 2, WINDOW, 500 + WINDOW + 100)).allowed).toBe(false);
    const after = await limiter.consume('k', 2, WINDOW, 1_000 + WINDOW);
    expect(after).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps one entry per millisecond, so a large limit costs no more per check', async () => {
    const limiter = createMemoryRateLimiter();
    const t0 = 1_700_000_000_000;
    // 200,000 requests within 20 ms: under the old per-request log each check shifted arrays as
    // long as the log; now the log has 20 entries.
    for (let i = 0; i < 200_000; i++) {
      await limiter.consume('big', 1_000_000, WINDOW, t0 + Math.floor(i / 10_000));
    }
    const r = await limiter.consume('big', 1_000_000, WINDOW, t0 + 20);
    expect(r).toMatchObject({ allowed: true, remaining: 1_000_000 - 200_001, resetAtMs: t0 + WINDOW });
    // The 20,000 requests of t0 and t0 + 1 have left the window.
    const slid = await limiter.consume('big', 1_000_000, WINDOW, t0 + WINDOW + 1);
    expect(slid).toMatchObject({ allowed: true, remaining: 1_000_000 - (200_001 - 20_000 + 1) });
    expect(slid.resetAtMs).toBe(t0 + 2 + WINDOW);
  });

  it('bounds the number of keys it holds', async () => {
    const limiter = createMemoryRateLimiter({ maxKeys: 10 });
    for (let i = 0; i < 50; i++) await limiter.consume(`k${i}`, 1, WINDOW, i);
    expect(limiter.size).toBeLessThanOrEqual(10);
  });
});
