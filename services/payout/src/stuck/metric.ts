// The payout.transactions.stuck gauge (README "Transaction state machine"): stuck transactions per
// rail, through the OpenTelemetry metrics API; Prometheus reads it as payout_transactions_stuck
// (docs/runbooks.md "Stuck transactions"). Collection may come often and from several readers;
// the count is one cheap indexed query, run at most once per `refreshMs` and cached between.
import { metrics, type ObservableGauge } from '@opentelemetry/api';
import type { Logger } from '@qr-payout/platform/log';
import type { SettlementHorizons } from './horizons';
import type { StuckStore } from './store';

export const STUCK_GAUGE = 'payout.transactions.stuck';

export type StuckGauge = {
  /** Stops observing (shutdown); a worker of startPayout's, hence a promise. */
  stop(): Promise<void>;
};

export function registerStuckGauge(deps: {
  store: StuckStore;
  horizons: SettlementHorizons;
  logger: Logger;
  refreshMs: number;
  now?: () => number;
}): StuckGauge {
  const now = deps.now ?? Date.now;
  const gauge: ObservableGauge = metrics
    .getMeter('@qr-payout/payout/stuck')
    .createObservableGauge(STUCK_GAUGE, {
      description: 'Transactions pending or processing past their rail settlement horizon',
    });
  let counts = new Map<string, number>();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;

  async function refresh(): Promise<void> {
    try {
      counts = await deps.store.countStuckByRail(deps.horizons);
      readAt = now();
    } catch (err) {
      // The last counts stay; the next collection tries again.
      deps.logger.warn({ err }, 'counting stuck transactions failed');
    }
  }

  const observe = async (result: { observe(value: number, attributes?: Record<string, string>): void }) => {
    if (now() - readAt >= deps.refreshMs) {
      reading ??= refresh().finally(() => {
        reading = undefined;
      });
      await reading;
    }
    // Every configured rail is observed, 0 included, so a rail's series drops back to 0 once fixed.
    const rails = new Set([...Object.keys(deps.horizons), ...counts.keys()]);
    for (const rail of rails) result.observe(counts.get(rail) ?? 0, { rail });
  };
  gauge.addCallback(observe);
  return {
    stop: async () => gauge.removeCallback(observe),
  };
}
