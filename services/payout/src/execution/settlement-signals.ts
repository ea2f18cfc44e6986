// In-process wake-ups for executes waiting on a transaction (design §3: execute waits a bounded
// time for a terminal state). A settlement in this process wakes its waiters at once and hands
// them the settled row, so they need not read it again; one settled by another replica is seen by
// the waiter's own re-reads, so nothing depends on delivery.
import type { LiveTransactionRow } from './store';

export interface SettlementSignals {
  /** Wakes every waiter of the transaction with its settled row (call after the commit). */
  notify(transactionId: string, settled: LiveTransactionRow): void;
  /**
   * Resolves at the next notify of the transaction with its settled row, or with undefined after
   * `ms` or when `signal` aborts.
   */
  next(transactionId: string, ms: number, signal?: AbortSignal): Promise<LiveTransactionRow | undefined>;
}

export function createSettlementSignals(): SettlementSignals {
  const waiters = new Map<string, Set<(settled?: LiveTransactionRow) => void>>();
  return {
    notify(transactionId, settled) {
      const set = waiters.get(transactionId);
      if (!set) return;
      waiters.delete(transactionId);
      for (const wake of set) wake(settled);
    },
    next(transactionId, ms, signal) {
      return new Promise<LiveTransactionRow | undefined>((resolve) => {
        let set = waiters.get(transactionId);
        if (!set) {
          set = new Set();
          waiters.set(transactionId, set);
        }
        const wake = (settled?: LiveTransactionRow) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', aborted);
          const current = waiters.get(transactionId);
          current?.delete(wake);
          if (current?.size === 0) waiters.delete(transactionId);
          resolve(settled);
        };
        const timer = setTimeout(() => wake(), Math.max(0, ms));
        const aborted = () => wake();
        signal?.addEventListener('abort', aborted, { once: true });
        set.add(wake);
      });
    },
  };
}
