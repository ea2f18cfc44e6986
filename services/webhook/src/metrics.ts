// The webhook service's metrics (docs/runbooks.md "Webhook consumer lag", "Oldest due delivery"):
// - webhook_attempts_total {outcome}: every attempt the worker makes, by what came of it;
// - webhook_deliveries_total {outcome}: deliveries reaching a terminal state (delivered, failed,
//   exhausted: docs/api/webhooks.md "Delivery states");
// - webhook_oldest_due_delivery_seconds: how late the most overdue pending delivery is (0 when
//   none is due): the worker is not keeping up;
// - webhook_kafka_consumer_lag_messages {topic}: transaction events the dispatcher's group
//   (WEBHOOK_DISPATCHER_GROUP) has not committed yet, summed over partitions; a partition the group
//   never committed counts from its earliest offset, where the dispatcher starts (a new group
//   reads from the beginning: README "Configuration").
// The two gauges read the database and Kafka, so every replica reports the same value, whatever its
// roles (a process without the dispatcher reports the lag too, so it still shows when every
// dispatcher is down): dashboards and alerts take max().
import { type Attributes, type Counter, metrics } from '@opentelemetry/api';
import type { Logger } from '@qr-payout/platform/log';
import type { DeliveryStatus } from './deliveries/state';

const METER = '@qr-payout/webhook';

export type AttemptOutcome = 'success' | 'http_error' | 'timeout' | 'network_error' | 'not_sent';
type TerminalStatus = Extract<DeliveryStatus, 'delivered' | 'failed' | 'exhausted'>;

/** What an attempt came to, from what the worker records (its error class). */
export function attemptOutcome(attempt: { succeeded: boolean; errorClass: string | null }): AttemptOutcome {
  if (attempt.succeeded) return 'success';
  switch (attempt.errorClass) {
    case 'http_status':
      return 'http_error';
    case 'timeout':
    case 'connect_timeout':
      return 'timeout';
    case 'connection_refused':
    case 'connection_reset':
    case 'tls':
    case 'network':
      return 'network_error';
    default:
      // Refused by the egress guard, no signing secret: nothing was sent.
      return 'not_sent';
  }
}

export type DeliveryMetrics = {
  attempted(attempt: { succeeded: boolean; errorClass: string | null }): void;
  /** `count` deliveries reached `status` (a terminal one; others are ignored). */
  finished(status: DeliveryStatus, count?: number): void;
};

/** The worker's counters; made when the worker starts (after the MeterProvider). */
export function createDeliveryMetrics(): DeliveryMetrics {
  const meter = metrics.getMeter(METER);
  const attempts: Counter = meter.createCounter('webhook_attempts', {
    description: 'Delivery attempts, by outcome',
  });
  const deliveries: Counter = meter.createCounter('webhook_deliveries', {
    description: 'Deliveries that reached a terminal state, by outcome',
  });
  const attemptAttributes = new Map<AttemptOutcome, Attributes>();
  const terminal = new Map<TerminalStatus, Attributes>([
    ['delivered', { outcome: 'delivered' }],
    ['failed', { outcome: 'failed' }],
    ['exhausted', { outcome: 'exhausted' }],
  ]);
  return {
    attempted(attempt) {
      const outcome = attemptOutcome(attempt);
      let attributes = attemptAttributes.get(outcome);
      if (!attributes) {
        attributes = { outcome };
        attemptAttributes.set(outcome, attributes);
      }
      attempts.add(1, attributes);
    },
    finished(status, count = 1) {
      const attributes = terminal.get(status as TerminalStatus);
      if (attributes && count > 0) deliveries.add(count, attributes);
    },
  };
}

export type WebhookGauges = { stop(): Promise<void> };

/**
 * The two gauges. Each collection reads the oldest due delivery (one index lookup); the consumer
 * lag (two Kafka admin requests) is read at most every `lagRefreshMs` and cached between.
 */
export function registerWebhookGauges(deps: {
  oldestDueAt(): Promise<Date | null>;
  /** Absent when the bus is not Kafka (the sandbox's in-memory bus: no consumer group to measure). */
  consumerLag?: { topic: string; read(): Promise<number> };
  logger: Logger;
  lagRefreshMs: number;
  now?: () => number;
}): WebhookGauges {
  const now = deps.now ?? Date.now;
  const meter = metrics.getMeter(METER);
  const oldestDue = meter.createObservableGauge('webhook_oldest_due_delivery_seconds', {
    description: 'How long the most overdue pending delivery has been due (0 when none)',
    unit: 's',
  });
  const observeOldestDue = async (result: { observe(value: number): void }) => {
    try {
      const dueAt = await deps.oldestDueAt();
      result.observe(dueAt ? Math.max(0, (now() - dueAt.getTime()) / 1000) : 0);
    } catch (err) {
      deps.logger.warn({ err }, 'reading the oldest due delivery failed');
    }
  };
  oldestDue.addCallback(observeOldestDue);

  const lagSource = deps.consumerLag;
  const lagGauge = meter.createObservableGauge('webhook_kafka_consumer_lag_messages', {
    description: "Transaction events the dispatcher's consumer group has not committed, over partitions",
  });
  let lag: number | undefined;
  let lagReadAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  const observeLag = async (result: { observe(value: number, attributes?: Attributes): void }) => {
    if (!lagSource) return;
    if (now() - lagReadAt >= deps.lagRefreshMs) {
      reading ??= lagSource
        .read()
        .then(
          (value) => {
            lag = value;
            lagReadAt = now();
          },
          (err: unknown) => deps.logger.warn({ err }, 'reading the consumer lag failed'),
        )
        .finally(() => {
          reading = undefined;
        });
      await reading;
    }
    if (lag !== undefined) result.observe(lag, { topic: lagSource.topic });
  };
  lagGauge.addCallback(observeLag);
  return {
    stop: async () => {
      oldestDue.removeCallback(observeOldestDue);
      lagGauge.removeCallback(observeLag);
    },
  };
}
