import { silentLogger } from '@qr-payout/platform/log';
import { type CollectedMetrics, collectGlobalMetrics } from '@qr-payout/test-kit/metrics';
import { OUTBOX_LAG_GAUGE, OUTBOX_PENDING_GAUGE, registerOutboxGauges } from './metrics';
import type { OutboxPendingStats } from './outbox/store';

describe('outbox gauges', () => {
  let collected: CollectedMetrics;
  beforeAll(() => {
    collected = collectGlobalMetrics();
  });
  afterAll(() => collected.stop());

  async function read(): Promise<Record<string, number | undefined>> {
    const all = await collected.collect();
    const value = (name: string) => {
      const point = all.find((m) => m.descriptor.name === name)?.dataPoints[0];
      return point === undefined ? undefined : Number(point.value);
    };
    return { pending: value(OUTBOX_PENDING_GAUGE), lag: value(OUTBOX_LAG_GAUGE) };
  }

  it('reports the backlog and the age of its oldest event, 0 when empty, one query per collection', async () => {
    let stats: OutboxPendingStats = { count: 3, oldestCreatedAt: new Date(1_000_000) };
    const pendingStats = jest.fn(async () => stats);
    const gauges = registerOutboxGauges({
      store: { pendingStats },
      logger: silentLogger(),
      now: () => 1_042_500,
    });
    try {
      expect(await read()).toEqual({ pending: 3, lag: 42.5 });
      expect(pendingStats).toHaveBeenCalledTimes(1);
      stats = { count: 0, oldestCreatedAt: null };
      expect(await read()).toEqual({ pending: 0, lag: 0 });
      pendingStats.mockRejectedValueOnce(new Error('database down'));
      stats = { count: 5, oldestCreatedAt: new Date(1_000_000) };
      // The last values stay, never a false 0.
      expect(await read()).toEqual({ pending: 0, lag: 0 });
      expect(await read()).toEqual({ pending: 5, lag: 42.5 });
    } finally {
      await gauges.stop();
    }
  });
});
