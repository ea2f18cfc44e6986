// The webhook service's metrics (docs/runbooks.md "Webhook consumer lag", "Oldest due delivery"):
// - webhook_attempts_total {outcome}: every attempt the worker makes, by what came of it;
// - webhook_deliveries_total {outcome}: deliveries reaching a terminal state (delivered, failed,
//   exhausted: docs/api/webhooks.md "Delivery states");
// - webhook_oldest_due_delivery_seconds: how late the most overdue pending delivery is (0 when
//   none is due): the worker is not keeping up;
// - webhook_kafka_consumer_lag_messages {topic}: transaction events the dispatcher's group
//   (WEBHOOK_DISPATCHER_GROUP) has not committed yet, summed over partitions; a partition the group
//   never committed counts from its earliest offset, where the dispatcher starts (a new group
//   reads from the beginning: README "Configuration");
// - webhook_dispatcher_group_members, webhook_dispatcher_topic_partitions {topic}: consumers in
//   that group and the topic's partitions; members beyond the partitions sit idle.
// The oldest-due gauge reads the database, so every replica reports the same value: dashboards
// and alerts take max(). The three Kafka gauges are reported by dispatcher processes only (the
// API and worker roles have no Kafka egress in the chart's NetworkPolicies); no process reporting
// them is itself the "no dispatcher" alert (docs/runbooks.md "No webhook dispatcher"). A scrape
// never waits on Kafka longer than `waitMs`: a slow read is served from the last value.
import {
  type Attributes,
  type Counter,
  metrics,
  type ObservableCallback,
  type ObservableGauge,
} from '@opentelemetry/api';
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
 * Reads `read` at most every `refreshMs`, waiting at most `waitMs` for a fresh value before
 * answering with the last one (undefined before the first read succeeds).
 */
function cachedReading(
  what: string,
  read: () => Promise<number>,
  opts: { refreshMs: number; waitMs: number; now: () => number; logger: Logger },
): () => Promise<number | undefined> {
  let value: number | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  return async () => {
    if (opts.now() - readAt >= opts.refreshMs) {
      reading ??= read()
        .then(
          (fresh) => {
            value = fresh;
            readAt = opts.now();
          },
          (err: unknown) => opts.logger.warn({ err }, `reading ${what} failed`),
        )
        .finally(() => {
          reading = undefined;
        });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([reading, new Promise((resolve) => (timer = setTimeout(resolve, opts.waitMs)))]);
      clearTimeout(timer);
    }
    return value;
  };
}

/** The dispatcher group as Kafka sees it (the dispatcher's process only). */
export type DispatcherGroupReadings = {
  topic: string;
  lag(): Promise<number>;
  members(): Promise<number>;
  partitions(): Promise<number>;
};

/**
 * Registers the gauges (see the top of this file); `stop` removes their callbacks. The Kafka
 * readings (two admin requests for the lag, one each for members and partitions) are made at most
 * every `refreshMs` and cached between.
 */
export function registerWebhookGauges(deps: {
  oldestDueAt(): Promise<Date | null>;
  /** Present in a process that runs the dispatcher over Kafka. */
  dispatcher?: DispatcherGroupReadings;
  logger: Logger;
  refreshMs: number;
  /** How long a scrape waits for a fresh Kafka reading (default 1 s). */
  waitMs?: number;
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

  const kafkaGauges: Array<{ gauge: ObservableGauge; callback: ObservableCallback }> = [];
  const group = deps.dispatcher;
  if (group) {
    const opts = { refreshMs: deps.refreshMs, waitMs: deps.waitMs ?? 1_000, now, logger: deps.logger };
    const topic = { topic: group.topic };
    const gauge = (
      name: string,
      description: string,
      read: () => Promise<number>,
      attributes?: Attributes,
    ) => {
      const current = cachedReading(name, read, opts);
      const observable = meter.createObservableGauge(name, { description });
      const callback: ObservableCallback = async (result) => {
        const value = await current();
        if (value !== undefined) result.observe(value, attributes);
      };
      observable.addCallback(callback);
      kafkaGauges.push({ gauge: observable, callback });
    };
    gauge(
      'webhook_kafka_consumer_lag_messages',
      "Transaction events the dispatcher's consumer group has not committed, over partitions",
      () => group.lag(),
      topic,
    );
    gauge('webhook_dispatcher_group_members', "Consumers in the dispatcher's group", () => group.members());
    gauge(
      'webhook_dispatcher_topic_partitions',
      'Partitions of the topic the dispatchers read; members beyond them sit idle',
      () => group.partitions(),
      topic,
    );
  }
  return {
    stop: async () => {
      oldestDue.removeCallback(observeOldestDue);
      for (const { gauge, callback } of kafkaGauges) gauge.removeCallback(callback);
    },
  };
}
