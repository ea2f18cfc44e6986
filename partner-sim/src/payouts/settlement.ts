import type { Outcome } from './outcome';

// Timers that move accepted payouts to their terminal state after the sandbox delay
// (PARTNER_SIM_SETTLE_MS, or PARTNER_SIM_SLOW_SETTLE_MS for amounts ending in 54).

export type LaterOutcome = Extract<Outcome, { kind: 'settles_later' }>;

export type SettlementScheduler = {
  /**
   * `elapsedMs`: how long ago the payout was accepted (a restarted simulator resumes it); a payout
   * whose delay has passed meanwhile settles at once.
   */
  schedule(payoutId: string, outcome: LaterOutcome, elapsedMs?: number): void;
  /** Payouts still waiting for their timer. */
  pending(): number;
  /** Cancels every timer: a closed simulator settles nothing more. */
  close(): void;
};

export function createSettlementScheduler(opts: {
  settleMs: number;
  slowSettleMs: number;
  settle: (payoutId: string, outcome: LaterOutcome) => void;
}): SettlementScheduler {
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  return {
    schedule(payoutId, outcome, elapsedMs = 0) {
      if (closed) return;
      const full = outcome.delay === 'slow' ? opts.slowSettleMs : opts.settleMs;
      const delay = Math.max(0, full - Math.max(0, elapsedMs));
      const timer = setTimeout(() => {
        timers.delete(timer);
        opts.settle(payoutId, outcome);
      }, delay);
      timers.add(timer);
    },
    pending: () => timers.size,
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
