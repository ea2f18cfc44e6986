// The outbox backlog as two gauges (docs/runbooks.md "Outbox lag"): payout_outbox_pending_events
// (events written and not yet published) and payout_outbox_lag_seconds (age of the oldest of them,
// 0 when none). Read with one query over the partial index of unpublished events per collection
// (a scrape, every 15-30 s), shared by both gauges. The backlog is the database's, so every payout
// replica reports the same value: dashboards and alerts take max().
import { metrics } from '@opentelemetry/api';
import type { Logger } from '@qr-payout/platform/log';
import type { OutboxPendingStats } from './outbox/store';

export const OUTBOX_PENDING_GAUGE = 'payout_outbox_pending_events';
export const OUTBOX_LAG_GAUGE = 'payout_outbox_lag_seconds';

export type OutboxGauges = { stop(): Promise<void> };

export function registerOutboxGauges(deps: {
  store: { pendingStats(): Promise<OutboxPendingStats> };
  logger: Logger;
  now?: () => number;
}): OutboxGauges {
  const now = deps.now ?? Date.now;
  const meter = metrics.getMeter('@qr-payout/payout/outbox');
  const pending = meter.createObservableGauge(OUTBOX_PENDING_GAUGE, {
    description: 'Outbox events written and not yet published to Kafka',
  });
  const lag = meter.createObservableGauge(OUTBOX_LAG_GAUGE, {
    description: 'Age of the oldest unpublished outbox event (0 when none)',
    unit: 's',
  });
  const observe = async (result: { observe(gauge: typeof pending, value: number): void }): Promise<void> => {
    let stats: OutboxPendingStats;
    try {
      stats = await deps.store.pendingStats();
    } catch (err) {
      // Nothing observed: the exporter repeats the last values, never a false 0; the log says why.
      deps.logger.warn({ err }, 'reading the outbox backlog failed');
      return;
    }
    result.observe(pending, stats.count);
    const oldest = stats.oldestCreatedAt?.getTime();
    result.observe(lag, oldest === undefined ? 0 : Math.max(0, (now() - oldest) / 1000));
  };
  meter.addBatchObservableCallback(observe, [pending, lag]);
  return { stop: async () => meter.removeBatchObservableCallback(observe, [pending, lag]) };
}
