// What the simulator saw, for tests that must prove "exactly one payout per key" (GET /_sim/stats).

export type SimStatsView = {
  /** Per idempotency key: accepted submissions that created a payout (1 when idempotency holds). */
  submissions: Record<string, number>;
  /** Requests to /v1 (every method, every answer). */
  requests: number;
  callbacks: { delivered: number; failed: number; dropped: number };
};

export type SimStats = {
  recordRequest(): void;
  recordPayoutCreated(idempotencyKey: string): void;
  recordCallback(outcome: keyof SimStatsView['callbacks']): void;
  view(): SimStatsView;
};

// Like the payout store, a long sandbox session must not grow without bound.
const DEFAULT_MAX_KEYS = 100_000;

export function createSimStats(opts: { maxKeys?: number } = {}): SimStats {
  const maxKeys = opts.maxKeys ?? DEFAULT_MAX_KEYS;
  const submissions = new Map<string, number>();
  let requests = 0;
  const callbacks = { delivered: 0, failed: 0, dropped: 0 };
  return {
    recordRequest() {
      requests += 1;
    },
    recordPayoutCreated(key) {
      submissions.set(key, (submissions.get(key) ?? 0) + 1);
      if (submissions.size > maxKeys) submissions.delete(submissions.keys().next().value as string);
    },
    recordCallback(outcome) {
      callbacks[outcome] += 1;
    },
    view: () => ({ submissions: Object.fromEntries(submissions), requests, callbacks: { ...callbacks } }),
  };
}
