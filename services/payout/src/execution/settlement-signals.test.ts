import { exponentialBackoff } from '../polling/worker';
import type { LiveTransaction } from './records';
import { createSettlementSignals } from './settlement-signals';

// Only the identity of the row matters here: the signals hand it over untouched.
const settledRow = { id: 'txn_a', status: 'completed' } as LiveTransaction;

describe('settlement signals', () => {
  it('wakes the waiters of a transaction at once with its settled row, and only those', async () => {
    const signals = createSettlementSignals();
    const woke: Array<[string, LiveTransaction | undefined]> = [];
    const a = signals.next('txn_a', 10_000).then((row) => woke.push(['a', row]));
    const b = signals.next('txn_b', 50).then((row) => woke.push(['b', row]));
    signals.notify('txn_a', settledRow);
    await a;
    expect(woke).toEqual([['a', settledRow]]);
    // A wait that times out brings no row: the waiter reads it again.
    await b;
    expect(woke).toEqual([
      ['a', settledRow],
      ['b', undefined],
    ]);
  });

  it("wake (another replica's settlement) ends the waits of that transaction at once without a row, and keeps nothing", async () => {
    const signals = createSettlementSignals();
    const started = Date.now();
    const a = signals.next('txn_a', 10_000);
    const other = signals.next('txn_b', 30);
    signals.wake('txn_a');
    await expect(a).resolves.toBeUndefined(); // the waiter reads the row itself
    expect(Date.now() - started).toBeLessThan(1_000);
    // Nothing kept: a later waiter of txn_a waits its pause out like any other.
    let settledLater = false;
    const later = signals.next('txn_a', 30).then((row) => {
      settledLater = true;
      return row;
    });
    await Promise.resolve();
    expect(settledLater).toBe(false);
    await expect(later).resolves.toBeUndefined();
    await expect(other).resolves.toBeUndefined();
  });

  it('hands a settlement that came first to a waiter arriving within recentMs, and only then', async () => {
    let now = 1_000_000;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const signals = createSettlementSignals({ recentMs: 500 });
      signals.notify('txn_a', settledRow);
      now += 499;
      await expect(signals.next('txn_a', 10_000)).resolves.toBe(settledRow);
      now += 1;
      // Stale now: the waiter waits (and, here, times out) like any other.
      await expect(signals.next('txn_a', 0)).resolves.toBeUndefined();
      await expect(signals.next('txn_b', 0)).resolves.toBeUndefined();
    } finally {
      clock.mockRestore();
    }
  });

  it('resolves on abort', async () => {
    const signals = createSettlementSignals();
    const controller = new AbortController();
    const waiting = signals.next('txn_a', 10_000, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});

describe('exponentialBackoff', () => {
  it('doubles from the base per attempt up to the max', () => {
    const backoff = exponentialBackoff(1_000, 60_000);
    expect([0, 1, 2, 5, 6, 7, 1_000].map(backoff)).toEqual([
      1_000, 2_000, 4_000, 32_000, 60_000, 60_000, 60_000,
    ]);
  });
});
