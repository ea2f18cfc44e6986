import type { BusMessage, EventBus } from '@qr-payout/platform/events';
import { silentLogger } from '@qr-payout/platform/log';
import { collectGlobalMetrics } from '@qr-payout/test-kit/metrics';
import { createOutboxRelay } from './relay';
import type { ClaimedEvent, OutboxStore } from './store';

// An outbox in memory with the store's contract: a round locks due, unpublished rows in id order,
// publishes them, then marks them published or failed.
function memoryOutbox(count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({
    event: {
      id: BigInt(i + 1),
      eventId: `evt-${i + 1}`,
      topic: 'payout.transaction-events.v1',
      key: `txn-${i + 1}`,
      payload: new Uint8Array([i]),
      headers: { 'event-id': `evt-${i + 1}` },
      attempts: 0,
      createdAt: new Date(),
    } as ClaimedEvent,
    published: false,
    /** Locked by a round in flight, or backing off after a failure: not due. */
    held: false,
    failures: [] as string[],
  }));
  const store: OutboxStore = {
    async relayRound({ limit }, publish) {
      const due = rows.filter((row) => !row.published && !row.held).slice(0, limit);
      for (const row of due) row.held = true;
      if (due.length === 0) return 0;
      const verdict = await publish(due.map((row) => ({ ...row.event, attempts: row.failures.length })));
      for (const row of due) {
        if (verdict.published) Object.assign(row, { published: true, held: false });
        else row.failures.push(verdict.error); // backing off: stays held during the test
      }
      return due.length;
    },
    async pendingStats() {
      const pending = rows.filter((row) => !row.published);
      return { count: pending.length, oldestCreatedAt: pending[0]?.event.createdAt ?? null };
    },
  };
  return { rows, store };
}

function recordingBus(publish: (messages: BusMessage[]) => Promise<void> = async () => {}) {
  const published: BusMessage[][] = [];
  const bus: EventBus = {
    async publish(_topic, messages) {
      await publish(messages);
      published.push(messages);
    },
    subscribe: () => Promise.reject(new Error('not used')),
    close: async () => {},
  };
  return { bus, published };
}

const options = { logger: silentLogger(), pollMs: 60_000, publishTimeoutMs: 1_000 };

describe('createOutboxRelay', () => {
  it('publishes in id order, batch by batch, and marks only what the bus acknowledged', async () => {
    const { rows, store } = memoryOutbox(5);
    const { bus, published } = recordingBus();
    const relay = createOutboxRelay({ ...options, store, bus, batchSize: 2 });
    expect(await relay.relayBatch()).toBe(2);
    expect(published.map((batch) => batch.map((m) => m.key))).toEqual([['txn-1', 'txn-2']]);
    expect(rows.map((row) => row.published)).toEqual([true, true, false, false, false]);
  });

  it('goes on without waiting while batches are full, then waits for a wake-up', async () => {
    const { rows, store } = memoryOutbox(5);
    const { bus, published } = recordingBus();
    const relay = createOutboxRelay({ ...options, store, bus, batchSize: 2 });
    relay.start();
    // pollMs is a minute: only the full batches keep the loop going.
    await waitFor(() => rows.every((row) => row.published));
    expect(published.map((batch) => batch.length)).toEqual([2, 2, 1]);
    await relay.stop();
  });

  it('on a failed publish marks the batch failed (with the error) and not published', async () => {
    const { rows, store } = memoryOutbox(2);
    const { bus } = recordingBus(async () => {
      throw new Error('broker unreachable');
    });
    const relay = createOutboxRelay({ ...options, store, bus, batchSize: 10 });
    expect(await relay.relayBatch()).toBe(2);
    expect(rows.map((row) => [row.published, row.failures])).toEqual([
      [false, ['broker unreachable']],
      [false, ['broker unreachable']],
    ]);
  });

  it('counts a publish that outlives publishTimeoutMs as failed, so the round ends and its locks go', async () => {
    const { rows, store } = memoryOutbox(1);
    const { bus } = recordingBus(() => new Promise(() => {})); // Kafka never answers
    const relay = createOutboxRelay({ ...options, store, bus, batchSize: 10, publishTimeoutMs: 50 });
    expect(await relay.relayBatch()).toBe(1);
    expect(rows[0]!.published).toBe(false);
    expect(rows[0]!.failures).toEqual(['no acknowledgement within 50 ms']);
  });

  it('lingers after a wake-up, so events committed together go out in one send', async () => {
    const { rows, store } = memoryOutbox(3);
    for (const row of rows) row.held = true; // nothing committed yet
    const { bus, published } = recordingBus();
    const relay = createOutboxRelay({ ...options, store, bus, batchSize: 10, lingerMs: 40 });
    relay.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    rows[0]!.held = false;
    relay.wake();
    await new Promise((resolve) => setTimeout(resolve, 10));
    rows[1]!.held = false; // committed during the linger
    rows[2]!.held = false;
    relay.wake();
    await waitFor(() => rows.every((row) => row.published));
    expect(published.map((batch) => batch.length)).toEqual([3]);
    await relay.stop();
  });

  it('runs a round at once on wake(), not only at the poll', async () => {
    const { rows, store } = memoryOutbox(1);
    rows[0]!.held = true; // not due yet
    let claims = 0;
    const counting: OutboxStore = {
      ...store,
      relayRound: (opts, publish) => {
        claims++;
        return store.relayRound(opts, publish);
      },
    };
    const relay = createOutboxRelay({ ...options, store: counting, bus: recordingBus().bus, batchSize: 10 });
    relay.start();
    await waitFor(() => claims === 1);
    rows[0]!.held = false; // committed now
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The poll is a minute away: nothing happens until the NOTIFY's wake-up.
    expect(claims).toBe(1);
    relay.wake();
    await waitFor(() => rows[0]!.published);
    expect(claims).toBe(2);
    await relay.stop();
  });

  it('stops only after the batch in flight is acknowledged and marked', async () => {
    const { rows, store } = memoryOutbox(1);
    let acknowledge: () => void = () => {};
    const acked = new Promise<void>((resolve) => {
      acknowledge = resolve;
    });
    let publishing = false;
    const { bus } = recordingBus(async () => {
      publishing = true;
      await acked;
    });
    const relay = createOutboxRelay({ ...options, store, bus, batchSize: 10 });
    relay.start();
    await waitFor(() => publishing);
    let stopped = false;
    const stopping = relay.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    acknowledge();
    await stopping;
    expect(rows[0]!.published).toBe(true);
  });
});

// This file imported the relay before any MeterProvider existed, as a service's entry point does
// before service-main registers one: instruments made at module load would record nothing.
describe("the relay's metrics", () => {
  it('records publishes and failures on the MeterProvider registered before the relay was created', async () => {
    const collected = collectGlobalMetrics();
    try {
      const { store } = memoryOutbox(2);
      let fail = true;
      const { bus } = recordingBus(async () => {
        if (fail) throw new Error('broker unreachable');
      });
      const relay = createOutboxRelay({ ...options, store, bus, batchSize: 1 });
      await relay.relayBatch(); // evt-1 fails
      fail = false;
      await relay.relayBatch(); // evt-2 published
      const recorded = await collected.collect();
      const sum = (name: string) =>
        recorded
          .find((m) => m.descriptor.name === name)
          ?.dataPoints.reduce((total, point) => total + Number(point.value), 0);
      expect(sum('payout_outbox_published')).toBe(1);
      expect(sum('payout_outbox_publish_failures')).toBe(1);
      const lag = recorded.find((m) => m.descriptor.name === 'payout_outbox_publish_delay_seconds')
        ?.dataPoints[0]?.value;
      expect(lag).toMatchObject({ count: 1 });
    } finally {
      await collected.stop();
    }
  });
});

async function waitFor(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
