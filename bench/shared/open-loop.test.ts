import { dueCount, runOpenLoop } from './open-loop';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('dueCount', () => {
  it('counts the request due at the start and one per interval after, up to the total', () => {
    expect(dueCount(-1, 10, 5)).toBe(0);
    expect(dueCount(0, 10, 5)).toBe(1);
    expect(dueCount(9.9, 10, 5)).toBe(1);
    expect(dueCount(10, 10, 5)).toBe(2);
    expect(dueCount(1_000, 10, 5)).toBe(5);
  });
});

describe('runOpenLoop', () => {
  it('sends rate × duration requests on schedule whatever the answers take', async () => {
    const sentAt: number[] = [];
    const start = performance.now();
    // Every answer takes 60 ms, far longer than the 10 ms interval: a closed loop of one would send 4.
    const run = await runOpenLoop(
      { ratePerSec: 100, durationMs: 200, maxInFlight: 1000 },
      async () => {
        sentAt.push(performance.now() - start);
        await sleep(60);
      },
      () => undefined,
    );
    expect(run.sent).toBe(20);
    expect(run.capHits).toBe(0);
    expect(run.maxInFlightSeen).toBeGreaterThanOrEqual(5);
    // The last request left near its due time (190 ms), not after the earlier answers.
    expect(sentAt[19]).toBeLessThan(190 + 40);
  });

  it('measures latency from the due time, so a request that waits for a slot shows the wait', async () => {
    const latencies: number[] = [];
    const run = await runOpenLoop(
      { ratePerSec: 100, durationMs: 50, maxInFlight: 1 },
      () => sleep(30),
      (_i, latencyMs) => latencies.push(latencyMs),
    );
    expect(run.sent).toBe(5);
    // One slot, 30 ms each: request i (due at 10·i ms) answers at about 30·(i+1) ms.
    expect(run.capHits).toBeGreaterThanOrEqual(3);
    expect(Math.max(...latencies)).toBeGreaterThanOrEqual(150 - 40 - 5);
  });

  it('settles a send that throws or rejects as an error, with its latency', async () => {
    const outcomes: boolean[] = [];
    await runOpenLoop(
      { ratePerSec: 1000, durationMs: 2, maxInFlight: 10 },
      (i) => {
        if (i === 0) throw new Error('sync');
        return Promise.reject(new Error('async'));
      },
      (_i, latencyMs, outcome) => {
        expect(latencyMs).toBeGreaterThanOrEqual(0);
        outcomes.push(outcome.ok);
      },
    );
    expect(outcomes).toEqual([false, false]);
  });
});
