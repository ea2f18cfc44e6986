// In-process wake-ups for executes waiting on a transaction (design §3: execute waits a bounded
// time for a terminal state). A settlement in this process wakes its waiters at once; one settled
// by another replica is seen by the waiter's own re-reads, so nothing depends on delivery.

export interface SettlementSignals {
  /** Wakes every waiter of the transaction (call after the settlement committed). */
  notify(transactionId: string): void;
  /** Resolves at the next notify of the transaction, after `ms`, or when `signal` aborts. */
  next(transactionId: string, ms: number, signal?: AbortSignal): Promise<void>;
}

export function createSettlementSignals(): SettlementSignals {
  const waiters = new Map<string, Set<() => void>>();
  return {
    notify(transactionId) {
      const set = waiters.get(transactionId);
      if (!set) return;
      waiters.delete(transactionId);
      for (const wake of set) wake();
    },
    next(transactionId, ms, signal) {
      return new Promise<void>((resolve) => {
        let set = waiters.get(transactionId);
        if (!set) {
          set = new Set();
          waiters.set(transactionId, set);
        }
        const wake = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', wake);
          const current = waiters.get(transactionId);
          current?.delete(wake);
          if (current?.size === 0) waiters.delete(transactionId);
          resolve();
        };
        const timer = setTimeout(wake, Math.max(0, ms));
        signal?.addEventListener('abort', wake, { once: true });
        set.add(wake);
      });
    },
  };
}
