// Wake-ups for executes waiting on a transaction (docs/api/idempotency.md "Execute and pay":
// execute waits a bounded time for a terminal state). A settlement in this process wakes its
// waiters at once and hands them the settled row, so they need not read it again. One settled by
// another replica wakes them through the outbox channel's NOTIFY (`wake`, docs/architecture.md
// "Waiting on another replica's settlement"): they read the row once. The waiter's own re-reads
// after each pause stay, so nothing depends on delivery. A settled row is also kept for a moment:
// a callback can settle the transaction before its execute, still recording the partner's first
// answer, starts to wait, and that execute must not sleep through a wake-up already given.
import type { LiveTransaction } from './records';

export interface SettlementSignals {
  /** Wakes every waiter of the transaction with its settled row (call after the commit). */
  notify(transactionId: string, settled: LiveTransaction): void;
  /**
   * Wakes every waiter of the transaction without a row (they read it): it reached a terminal
   * state in some replica, this one or another. Nothing is kept for later waiters, which read the
   * row before they pause anyway.
   */
  wake(transactionId: string): void;
  /**
   * Resolves with the transaction's settled row: at once when it settled within the last
   * `recentMs`, else at its next notify; with undefined after `ms` or when `signal` aborts.
   */
  next(transactionId: string, ms: number, signal?: AbortSignal): Promise<LiveTransaction | undefined>;
}

/** How long a settled row is handed to waiters that come after its settlement. */
export const RECENT_SETTLEMENT_MS = 2_000;

export function createSettlementSignals(opts: { recentMs?: number } = {}): SettlementSignals {
  const recentMs = opts.recentMs ?? RECENT_SETTLEMENT_MS;
  const waiters = new Map<string, Set<(settled?: LiveTransaction) => void>>();
  // Insertion order is settlement order, so the stale entries are always at the front.
  const recent = new Map<string, { row: LiveTransaction; at: number }>();

  function forgetStale(now: number): void {
    for (const [id, entry] of recent) {
      if (now - entry.at < recentMs) break;
      recent.delete(id);
    }
  }

  /** Ends every wait on the transaction, handing over the settled row when there is one. */
  function wakeWaiters(transactionId: string, settled?: LiveTransaction): void {
    const set = waiters.get(transactionId);
    if (!set) return;
    waiters.delete(transactionId);
    for (const wake of set) wake(settled);
  }

  return {
    notify(transactionId, settled) {
      const now = Date.now();
      forgetStale(now);
      recent.delete(transactionId);
      recent.set(transactionId, { row: settled, at: now });
      wakeWaiters(transactionId, settled);
    },
    wake: (transactionId) => wakeWaiters(transactionId),
    next(transactionId, ms, signal) {
      const now = Date.now();
      forgetStale(now);
      const settled = recent.get(transactionId);
      if (settled) return Promise.resolve(settled.row);
      return new Promise<LiveTransaction | undefined>((resolve) => {
        let set = waiters.get(transactionId);
        if (!set) {
          set = new Set();
          waiters.set(transactionId, set);
        }
        const wake = (settled?: LiveTransaction) => {
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
