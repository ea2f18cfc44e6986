import { metrics } from '@opentelemetry/api';
import type { BusMessage, EventBus, Logger } from '@qr-payout/platform';
import type { ClaimedEvent, OutboxStore } from './store';

export type OutboxRelayOptions = {
  store: OutboxStore;
  bus: EventBus;
  logger: Logger;
  /** Events claimed and published per round (OUTBOX_BATCH_SIZE). */
  batchSize: number;
  /** Safety-net poll when no notification arrives (OUTBOX_POLL_MS). */
  pollMs: number;
  /** How long a claimed batch is kept from other relays (OUTBOX_LEASE_MS); longer than a publish. */
  leaseMs: number;
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
  /** One claim–publish–mark round; resolves with the number of events claimed (tests, tools). */
  relayBatch(): Promise<number>;
};

const meter = metrics.getMeter('@qr-payout/payout/outbox');
const lagHistogram = meter.createHistogram('payout.outbox.lag', {
  description: 'Time from writing an outbox event to the bus acknowledging it',
  unit: 'ms',
});
const publishedCounter = meter.createCounter('payout.outbox.published', {
  description: 'Outbox events acknowledged by the bus',
});
const failedCounter = meter.createCounter('payout.outbox.publish_failures', {
  description: 'Outbox events whose publish failed and will be retried',
});

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

/**
 * The outbox relay (design §5): claims due events with a lease, publishes them, and marks them
 * published only after the bus acknowledged them (Kafka: idempotent producer, acks all). A crash
 * between the ack and the mark publishes the batch again once the lease runs out: delivery is at
 * least once, every copy carries the same `event-id`, and consumers deduplicate on it.
 */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { store, bus, logger } = opts;
  const backoff = { baseMs: opts.retryBaseMs ?? 500, maxMs: opts.retryMaxMs ?? 60_000 };
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

  async function publish(events: ClaimedEvent[]): Promise<void> {
    try {
      for (const [topic, messages] of byTopic(events)) await bus.publish(topic, messages);
    } catch (err) {
      failedCounter.add(events.length);
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
      await store.markFailed(
        events.map((e) => e.id),
        err instanceof Error ? err.message : String(err),
        backoff,
      );
      return;
    }
    await store.markPublished(events.map((e) => e.id));
    const now = Date.now();
    let maxLag = 0;
    for (const event of events) {
      const lag = now - event.createdAt.getTime();
      lagHistogram.record(lag);
      maxLag = Math.max(maxLag, lag);
    }
    publishedCounter.add(events.length);
    logger.debug({ count: events.length, max_lag_ms: maxLag }, 'outbox events published');
  }

  async function relayBatch(): Promise<number> {
    const events = await store.claimDue(opts.batchSize, opts.leaseMs);
    if (events.length > 0) await publish(events);
    return events.length;
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      wakeRequested = false;
      let claimed = 0;
      try {
        claimed = await relayBatch();
      } catch (err) {
        // The database is away (claim or mark failed): claimed rows come back when their lease ends.
        logger.error({ err }, 'outbox relay round failed');
      }
      // A full batch means more are probably due: go again without waiting.
      if (claimed < opts.batchSize) await sleepUntilWoken(opts.pollMs);
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
