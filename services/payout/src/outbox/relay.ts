import { metrics } from '@opentelemetry/api';
import { type BusMessage, type EventBus, withDeadline } from '@qr-payout/platform/events';
import type { Logger } from '@qr-payout/platform/log';
import { durationHistogram } from '@qr-payout/platform/metrics';
import type { ClaimedEvent, OutboxStore, PublishVerdict } from './store';

export type OutboxRelayOptions = {
  store: OutboxStore;
  bus: EventBus;
  logger: Logger;
  /** Events locked and published per round (OUTBOX_BATCH_SIZE). */
  batchSize: number;
  /** Safety-net poll when no notification arrives (OUTBOX_POLL_MS). */
  pollMs: number;
  /**
   * The longest a round waits for the bus's acknowledgement (OUTBOX_PUBLISH_TIMEOUT_MS): past it
   * the publish counts as failed and the round ends, so a hung Kafka never holds the rows' locks
   * for longer. The database ends a round's transaction idle for this plus a margin.
   */
  publishTimeoutMs: number;
  /**
   * After a wake-up, how long to let more events commit before locking the batch
   * (OUTBOX_LINGER_MS): events that become due together go out in one send and one UPDATE.
   */
  lingerMs?: number;
  /** Backoff of a failed publish: retryBaseMs · 2^attempts, at most retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
};

export type OutboxRelay = {
  /** Starts the loop: a round now, then on every wake() and at least every pollMs. */
  start(): void;
  /** Asks for a round as soon as the current one is done (a NOTIFY arrived). */
  wake(): void;
  /** Stops taking new batches and resolves once the batch in flight is published and marked. */
  stop(): Promise<void>;
  /** One lock–publish–mark round; resolves with the number of events locked (tests, tools). */
  relayBatch(): Promise<number>;
};

/**
 * The relay's instruments, made when the relay is: the OpenTelemetry API has no proxy meter, so
 * instruments made at module load, before service-main registers the MeterProvider, would stay
 * no-ops (docs/architecture.md "Metrics"). The backlog gauges are `metrics.ts`'s.
 */
function relayInstruments() {
  const meter = metrics.getMeter('@qr-payout/payout/outbox');
  return {
    delay: durationHistogram(
      '@qr-payout/payout/outbox',
      'payout_outbox_publish_delay_seconds',
      'Time from writing an outbox event to the bus acknowledging it',
    ),
    published: meter.createCounter('payout_outbox_published', {
      description: 'Outbox events acknowledged by the bus',
    }),
    failed: meter.createCounter('payout_outbox_publish_failures', {
      description: 'Outbox events whose publish failed and will be retried',
    }),
  };
}

// Keeps the claimed order; a batch mixes topics only if the outbox ever holds several.
function byTopic(events: readonly ClaimedEvent[]): Map<string, BusMessage[]> {
  const topics = new Map<string, BusMessage[]>();
  for (const event of events) {
    const messages = topics.get(event.topic) ?? [];
    messages.push({ key: event.key, value: event.payload, headers: event.headers });
    topics.set(event.topic, messages);
  }
  return topics;
}

/** What the database adds to the publish deadline before it ends an idle round itself. */
const HOLD_MARGIN_MS = 5_000;

/**
 * The outbox relay (docs/architecture.md "The outbox and Kafka", README "Outbox relay"): each round
 * locks due events in one database transaction, publishes them, and marks them published only after
 * the bus acknowledged them (Kafka: idempotent producer, acks all), then commits. A crash between
 * the ack and the commit rolls the mark back, so another round publishes the batch again: delivery
 * is at least once, every copy carries the same `event-id`, and consumers deduplicate on it
 * (docs/api/webhooks.md "Delivery semantics").
 */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { store, bus, logger } = opts;
  const backoff = { baseMs: opts.retryBaseMs ?? 500, maxMs: opts.retryMaxMs ?? 60_000 };
  const lingerMs = opts.lingerMs ?? 0;
  const instruments = relayInstruments();
  let running: Promise<void> | undefined;
  let stopping = false;
  let wakeRequested = false;
  let wakeWaiter: (() => void) | undefined;

  function wake(): void {
    wakeRequested = true;
    wakeWaiter?.();
  }

  function sleepUntilWoken(ms: number): Promise<void> {
    if (wakeRequested || stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeWaiter = undefined;
        resolve();
      }
      wakeWaiter = done;
    });
  }

  async function publish(events: ClaimedEvent[]): Promise<PublishVerdict> {
    try {
      // The bus is told the deadline too: the Kafka bus then never sends on a producer whose
      // acknowledgement did not come in time (docs/architecture.md "The outbox and Kafka").
      const deadline = Date.now() + opts.publishTimeoutMs;
      await withDeadline(
        (async () => {
          for (const [topic, messages] of byTopic(events)) {
            await bus.publish(topic, messages, { timeoutMs: Math.max(1, deadline - Date.now()) });
          }
        })(),
        opts.publishTimeoutMs,
      );
    } catch (err) {
      instruments.failed.add(events.length);
      const oldest = events[0]!;
      logger.warn(
        {
          err,
          count: events.length,
          attempts: oldest.attempts + 1,
          lag_ms: Date.now() - oldest.createdAt.getTime(),
        },
        'outbox publish failed; will retry',
      );
      return { published: false, error: err instanceof Error ? err.message : String(err) };
    }
    const now = Date.now();
    let maxLag = 0;
    for (const event of events) {
      const lag = now - event.createdAt.getTime();
      instruments.delay.record(lag / 1000);
      maxLag = Math.max(maxLag, lag);
    }
    instruments.published.add(events.length);
    logger.debug({ count: events.length, max_lag_ms: maxLag }, 'outbox events published');
    return { published: true };
  }

  function relayBatch(): Promise<number> {
    return store.relayRound(
      { limit: opts.batchSize, holdMs: opts.publishTimeoutMs + HOLD_MARGIN_MS, backoff },
      publish,
    );
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      wakeRequested = false;
      let claimed = 0;
      try {
        claimed = await relayBatch();
      } catch (err) {
        // The database is away, or the round's session ended: its transaction rolled back, so its
        // rows are unlocked and unmarked, due for the next round.
        logger.error({ err }, 'outbox relay round failed');
      }
      // A full batch means more are probably due: go again without waiting.
      if (claimed < opts.batchSize) {
        await sleepUntilWoken(opts.pollMs);
        // Let the events committing right now join this round (one send, one UPDATE for them).
        if (lingerMs > 0 && !stopping) await new Promise((resolve) => setTimeout(resolve, lingerMs));
      }
    }
  }

  return {
    start() {
      if (running || stopping) return;
      running = loop();
    },
    wake,
    async stop() {
      stopping = true;
      wakeWaiter?.();
      await running;
    },
    relayBatch,
  };
}
