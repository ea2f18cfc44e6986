import { silentLogger } from '@qr-payout/platform/log';
import { type CollectedMetrics, collectGlobalMetrics } from '@qr-payout/test-kit/metrics';
import { attemptOutcome, createDeliveryMetrics, registerWebhookGauges } from './metrics';

describe('webhook metrics', () => {
  let collected: CollectedMetrics;
  // A fresh MeterProvider per test: a gauge's last points would otherwise carry into the next.
  beforeEach(() => {
    collected = collectGlobalMetrics();
  });
  afterEach(() => collected.stop());

  /** name → { "label=value" → value } */
  async function read(): Promise<Record<string, Record<string, number>>> {
    const out: Record<string, Record<string, number>> = {};
    for (const metric of await collected.collect()) {
      out[metric.descriptor.name] = Object.fromEntries(
        metric.dataPoints.map((p) => [
          Object.entries(p.attributes)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(','),
          Number(p.value),
        ]),
      );
    }
    return out;
  }

  it('names each attempt outcome from the error class the worker records', () => {
    expect(attemptOutcome({ succeeded: true, errorClass: null })).toBe('success');
    expect(attemptOutcome({ succeeded: false, errorClass: 'http_status' })).toBe('http_error');
    expect(attemptOutcome({ succeeded: false, errorClass: 'connect_timeout' })).toBe('timeout');
    expect(attemptOutcome({ succeeded: false, errorClass: 'connection_refused' })).toBe('network_error');
    expect(attemptOutcome({ succeeded: false, errorClass: 'refused_target' })).toBe('not_sent');
  });

  it('counts attempts by outcome and deliveries by terminal state only', async () => {
    const counted = createDeliveryMetrics();
    counted.attempted({ succeeded: false, errorClass: 'http_status' });
    counted.attempted({ succeeded: false, errorClass: 'http_status' });
    counted.attempted({ succeeded: true, errorClass: null });
    counted.finished('delivered');
    counted.finished('pending');
    counted.finished('failed', 3);
    counted.finished('failed', 0);
    const read1 = await read();
    expect(read1['webhook_attempts']).toEqual({ 'outcome=http_error': 2, 'outcome=success': 1 });
    expect(read1['webhook_deliveries']).toEqual({ 'outcome=delivered': 1, 'outcome=failed': 3 });
  });

  it('reports how late the oldest due delivery is, and the Kafka readings at most once per refresh', async () => {
    let dueAt: Date | null = new Date(10_000);
    let clock = 12_500;
    const lag = jest.fn(async () => 7);
    const gauges = registerWebhookGauges({
      oldestDueAt: async () => dueAt,
      dispatcher: {
        topic: 'payout.transaction-events.v1',
        lag,
        members: async () => 4,
        partitions: async () => 3,
      },
      logger: silentLogger(),
      refreshMs: 5_000,
      now: () => clock,
    });
    try {
      const first = await read();
      expect(first['webhook_oldest_due_delivery_seconds']).toEqual({ '': 2.5 });
      expect(first['webhook_kafka_consumer_lag_messages']).toEqual({
        'topic=payout.transaction-events.v1': 7,
      });
      expect(first['webhook_dispatcher_group_members']).toEqual({ '': 4 });
      expect(first['webhook_dispatcher_topic_partitions']).toEqual({
        'topic=payout.transaction-events.v1': 3,
      });
      dueAt = null;
      clock += 1_000;
      const second = await read();
      expect(second['webhook_oldest_due_delivery_seconds']).toEqual({ '': 0 });
      expect(lag).toHaveBeenCalledTimes(1);
      clock += 5_000;
      await read();
      expect(lag).toHaveBeenCalledTimes(2);
    } finally {
      await gauges.stop();
    }
  });

  it('never holds a scrape on a slow Kafka reading: the last value is served, or none yet', async () => {
    let clock = 0;
    let answer: ((value: number) => void) | undefined;
    const gauges = registerWebhookGauges({
      oldestDueAt: async () => null,
      dispatcher: {
        topic: 't',
        lag: () => new Promise<number>((resolve) => (answer = resolve)),
        members: async () => 1,
        partitions: async () => 1,
      },
      logger: silentLogger(),
      refreshMs: 5_000,
      waitMs: 50,
      now: () => clock,
    });
    try {
      const started = Date.now();
      const first = await read();
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(first['webhook_kafka_consumer_lag_messages']).toBeUndefined();
      answer?.(12);
      await new Promise((resolve) => setImmediate(resolve));
      clock += 1_000;
      expect((await read())['webhook_kafka_consumer_lag_messages']).toEqual({ 'topic=t': 12 });
    } finally {
      await gauges.stop();
    }
  });

  it('reports no Kafka gauge in a process without the dispatcher', async () => {
    const gauges = registerWebhookGauges({
      oldestDueAt: async () => null,
      logger: silentLogger(),
      refreshMs: 5_000,
    });
    try {
      const values = await read();
      expect(values['webhook_oldest_due_delivery_seconds']).toEqual({ '': 0 });
      expect(values['webhook_kafka_consumer_lag_messages']).toBeUndefined();
      expect(values['webhook_dispatcher_group_members']).toBeUndefined();
    } finally {
      await gauges.stop();
    }
  });
});
