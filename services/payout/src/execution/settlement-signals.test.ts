import { exponentialBackoff } from '../polling/worker';
import { createSettlementSignals } from './settlement-signals';

describe('settlement signals', () => {
  it('wakes the waiters of a transaction at once, and only those', async () => {
    const signals = createSettlementSignals();
    const woke: string[] = [];
    const a = signals.next('txn_a', 10_000).then(() => woke.push('a'));
    const b = signals.next('txn_b', 50).then(() => woke.push('b'));
    signals.notify('txn_a');
    await a;
    expect(woke).toEqual(['a']);
    await b;
    expect(woke).toEqual(['a', 'b']);
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
