// The outbox relay against real PostgreSQL and real Kafka
// (docs/architecture.md "The outbox and Kafka"): what a committed terminal transition produces on
// payout.transaction-events.v1, what a rolled-back one does not, Kafka outages, and replicas
// sharing the work.
import { create, equals, fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { withTransaction } from '@qr-payout/platform/db';
import type { BusMessage } from '@qr-payout/platform/events';
import { silentLogger } from '@qr-payout/platform/log';
import { shutdownTelemetry, startTelemetry } from '@qr-payout/platform/telemetry';
import { TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { TransactionSchema, TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { testInfra } from '@qr-payout/test-kit/infra';
import type pg from 'pg';
import { createExecutionStore } from '../src/execution/store';
import { loadPayoutConfig, type RunningPayout, startPayout } from '../src/index';
import { listenToOutbox } from '../src/outbox/listener';
import { appendTransactionEvent, createOutboxStore } from '../src/outbox/store';
import { type RunningOutboxRelay, runOutboxRelay } from '../src/start';
import { seedTransaction } from './fixtures';
import {
  appendCommitted,
  collectTransactionEvents,
  type KafkaBus,
  kafkaBus,
  migratedSchema,
  outboxRows,
  sleep,
  terminalTransaction,
  unreachableKafkaBus,
  waitUntil,
  withKeys,
} from './support/outbox';

jest.setTimeout(120_000);

const eventIdsOf = (messages: readonly BusMessage[]) => messages.map((m) => m.headers['event-id']!);

function countBy<T>(items: readonly T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

describe('outbox relay (real PostgreSQL and Kafka)', () => {
  const exporter = new InMemorySpanExporter();
  const consumerBus = kafkaBus('payout-outbox-test-consumer');
  const buses: KafkaBus[] = [consumerBus];
  const cleanups: Array<() => Promise<void>> = [];
  let consumed: { messages: BusMessage[]; stop(): Promise<void> };

  beforeAll(async () => {
    startTelemetry({
      serviceName: 'payout-outbox-test',
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    consumed = await collectTransactionEvents(consumerBus);
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await consumed?.stop();
    await Promise.all(buses.map((bus) => bus.close()));
    await shutdownTelemetry();
  });

  async function schema() {
    const created = await migratedSchema();
    cleanups.push(() => created.drop());
    return created;
  }

  function relay(opts: {
    pool: pg.Pool;
    schema: string;
    bus: KafkaBus;
    batchSize?: number;
    pollMs?: number;
  }): RunningOutboxRelay {
    const running = runOutboxRelay({
      store: createOutboxStore(opts.pool),
      bus: opts.bus,
      logger: silentLogger(),
      connectionString: testInfra.databaseUrl,
      schema: opts.schema,
      batchSize: opts.batchSize ?? 50,
      pollMs: opts.pollMs ?? 100,
      publishTimeoutMs: 60_000,
      retryBaseMs: 100,
      retryMaxMs: 400,
    });
    cleanups.push(() => running.stop());
    return running;
  }

  // A terminal transition as the settlement code makes it: the UPDATE and the event in one
  // database transaction. The event carries the outcome; the relay never reads the message.
  async function settle(client: pg.PoolClient, transactionId: string, status: 'completed' | 'failed') {
    const { rows } = await client.query<{ tenant_id: string; instruction_id: string }>(
      status === 'completed'
        ? `UPDATE transactions SET status = 'completed', result_reference = 'E2E0001',
             result_settled_at = now(), updated_at = now() WHERE id = $1 RETURNING tenant_id, instruction_id`
        : `UPDATE transactions SET status = 'failed', error_code = 'AC04', error_reason = 'Closed account',
             error_partner_status = 'RJCT', updated_at = now() WHERE id = $1 RETURNING tenant_id, instruction_id`,
      [transactionId],
    );
    const txn = create(TransactionSchema, {
      id: transactionId,
      tenantId: rows[0]!.tenant_id,
      instructionId: rows[0]!.instruction_id,
      ...(status === 'completed'
        ? { status: TransactionStatus.COMPLETED, result: { reference: 'E2E0001' } }
        : {
            status: TransactionStatus.FAILED,
            error: { code: 'AC04', reason: 'Closed account', partnerStatus: 'RJCT' },
          }),
    });
    return { txn, ...(await appendTransactionEvent(client, txn)) };
  }

  it('publishes a committed transition once (key, event-id, event-type, traceparent, TransactionEvent); a rolled-back one never', async () => {
    const { schema: name, pool } = await schema();
    // The service's own relay, with a poll far longer than the test: only NOTIFY can wake it.
    const payout: RunningPayout = await startPayout(
      loadPayoutConfig({
        DATABASE_URL: testInfra.databaseUrl,
        DB_SCHEMA: name,
        DB_POOL_MAX: '2',
        GRPC_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        KAFKA_BROKERS: testInfra.kafkaBrokers.join(','),
        OUTBOX_POLL_MS: '600000',
      }),
    );
    cleanups.push(() => payout.stop());
    const rolledBack = await seedTransaction(pool, name, 'ten_outbox_a');
    const committed = await seedTransaction(pool, name, 'ten_outbox_a');
    const keys = new Set([rolledBack.transactionId, committed.transactionId]);

    await expect(
      withTransaction(pool, async (client) => {
        await settle(client, rolledBack.transactionId, 'failed');
        throw new Error('the settlement failed after the append');
      }),
    ).rejects.toThrow('the settlement failed');

    const occurredBefore = Date.now();
    const { settled, traceId } = await trace.getTracer('test').startActiveSpan('settle', async (span) => {
      const result = await withTransaction(pool, (client) =>
        settle(client, committed.transactionId, 'completed'),
      );
      span.end();
      return { settled: result, traceId: span.spanContext().traceId };
    });

    await waitUntil(
      'the committed event on Kafka',
      () => withKeys(consumed.messages, keys).length > 0,
      30_000,
    );
    // Later rounds (and the rolled-back transition) must add nothing.
    await sleep(1_500);
    const received = withKeys(consumed.messages, keys);
    expect(received).toHaveLength(1);
    const [message] = received as [BusMessage];
    expect(message.key).toBe(committed.transactionId);
    expect(message.headers['event-id']).toBe(settled.eventId);
    expect(message.headers['event-type']).toBe('transaction.completed');
    expect(message.headers['traceparent']).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));

    const event = fromBinary(TransactionEventSchema, message.value);
    expect(event.eventId).toBe(settled.eventId);
    expect(event.eventType).toBe('transaction.completed');
    expect(event.schemaVersion).toBe('1');
    expect(event.tenantId).toBe('ten_outbox_a');
    expect(timestampDate(event.occurredAt!).getTime()).toBeGreaterThanOrEqual(occurredBefore - 1);
    expect(equals(TransactionSchema, event.transaction!, settled.txn)).toBe(true);
    expect(event.transaction?.result?.reference).toBe('E2E0001');

    expect(await outboxRows(pool)).toEqual([
      { event_id: settled.eventId, published: true, attempts: 0, last_error: null },
    ]);
    const { rows } = await pool.query('SELECT status FROM transactions WHERE id = $1', [
      rolledBack.transactionId,
    ]);
    expect(rows[0].status).toBe('pending');
  });

  it('listens again after its connection is killed: NOTIFY still wakes the relay', async () => {
    const { schema: name, pool } = await schema();
    const bus = kafkaBus('payout-outbox-test-listen');
    buses.push(bus);
    relay({ pool, schema: name, bus, pollMs: 600_000 });
    const listening = async () => {
      const { rows } = await pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = 'payout-outbox-listener' AND query = $1`,
        [`LISTEN "outbox_events:${name}"`],
      );
      return rows;
    };
    await waitUntil('the listener connection', async () => (await listening()).length === 1);
    const [{ pid: killed }] = (await listening()) as [{ pid: number }];
    await pool.query('SELECT pg_terminate_backend($1)', [killed]);
    await waitUntil('a new listener connection', async () => {
      const rows = await listening();
      return rows.length === 1 && rows[0]!.pid !== killed;
    });

    const txn = terminalTransaction('completed');
    const [eventId] = await appendCommitted(pool, [txn]);
    // The poll is ten minutes away: only the new LISTEN can have woken the relay.
    await waitUntil(
      'the event on Kafka',
      () => withKeys(consumed.messages, new Set([txn.id])).length === 1,
      30_000,
    );
    expect(withKeys(consumed.messages, new Set([txn.id]))[0]!.headers['event-id']).toBe(eventId);
  });

  it("names the settled transaction in the NOTIFY: every replica's listener hears which one, the relay is woken", async () => {
    // Two listeners on one schema, as two replicas: the one that settles and the one whose execute
    // waits (docs/architecture.md "Waiting on another replica's settlement").
    const { schema: name, pool } = await schema();
    const heard: Array<Array<string | undefined>> = [[], []];
    const listeners = heard.map((into) =>
      listenToOutbox({
        connectionString: testInfra.databaseUrl,
        schema: name,
        logger: silentLogger(),
        onWake: (transactionId) => into.push(transactionId),
      }),
    );
    cleanups.push(async () => {
      for (const listener of listeners) await listener.stop();
    });
    // Each says it (re)connected with undefined: notifications may have been missed before.
    await waitUntil('both listeners connected', () => heard.every((into) => into.includes(undefined)));

    const store = createExecutionStore(pool);
    const completed = await seedTransaction(pool, name, 'tnt_notify');
    const failed = await seedTransaction(pool, name, 'tnt_notify');
    await store.settle(completed.transactionId, {
      status: 'completed',
      partnerPayoutId: 'pp_1',
      reference: 'E2E0001',
      settledAt: new Date(),
    });
    await store.settle(failed.transactionId, {
      status: 'failed',
      partnerPayoutId: null,
      code: 'AC04',
      reason: 'Closed account',
      partnerStatus: 'RJCT',
    });
    // Settled again: terminal already, nothing written and nothing sent.
    await store.settle(completed.transactionId, {
      status: 'failed',
      partnerPayoutId: null,
      code: 'AC04',
      reason: 'Closed account',
      partnerStatus: 'RJCT',
    });
    const ids = [completed.transactionId, failed.transactionId];
    await waitUntil('both notifications heard by both', () =>
      heard.every((into) => ids.every((id) => into.includes(id))),
    );
    await sleep(200);
    for (const into of heard) expect(into.filter((id) => id !== undefined)).toEqual(ids);

    // appendTransactionEvent (the other writer of outbox rows) names its transaction too.
    const txn = terminalTransaction('completed');
    await appendCommitted(pool, [txn]);
    await waitUntil('the appended one heard', () => heard.every((into) => into.includes(txn.id)));
  });

  it('keeps events unpublished while Kafka is down and publishes them once it is reachable', async () => {
    const { schema: name, pool } = await schema();
    const txns = [
      terminalTransaction('completed'),
      terminalTransaction('failed'),
      terminalTransaction('completed'),
    ];
    const keys = new Set(txns.map((txn) => txn.id));
    const eventIds = await appendCommitted(pool, txns);

    const downBus = await unreachableKafkaBus('payout-outbox-test-down');
    buses.push(downBus);
    const down = relay({ pool, schema: name, bus: downBus });
    await waitUntil('failed publish attempts', async () =>
      (await outboxRows(pool)).every((row) => row.attempts >= 2),
    );
    await down.stop();

    const rows = await outboxRows(pool);
    expect(rows.map((row) => row.event_id)).toEqual(eventIds);
    for (const row of rows) {
      expect(row.published).toBe(false);
      expect(row.last_error).toEqual(expect.any(String));
    }
    // The backlog as the metrics read it: three events, the oldest written first.
    const { rows: written } = await pool.query<{ created_at: Date }>(
      'SELECT created_at FROM outbox_events ORDER BY created_at LIMIT 1',
    );
    const store = createOutboxStore(pool);
    expect(await store.pendingStats()).toEqual({ count: 3, oldestCreatedAt: written[0]!.created_at });
    expect(withKeys(consumed.messages, keys)).toEqual([]);

    // Kafka is back (a relay on the live broker): every event goes out, once.
    const upBus = kafkaBus('payout-outbox-test-up');
    buses.push(upBus);
    relay({ pool, schema: name, bus: upBus });
    await waitUntil(
      'the events on Kafka',
      () => withKeys(consumed.messages, keys).length >= txns.length,
      30_000,
    );
    await waitUntil('the rows marked published', async () =>
      (await outboxRows(pool)).every((row) => row.published),
    );
    expect(await store.pendingStats()).toEqual({ count: 0, oldestCreatedAt: null });
    const received = withKeys(consumed.messages, keys);
    expect(eventIdsOf(received).sort()).toEqual([...eventIds].sort());
    expect(new Set(received.map((m) => m.key))).toEqual(keys);
  });

  it('shares the work between two relays: every event published exactly once', async () => {
    const { schema: name, pool } = await schema();
    const busA = kafkaBus('payout-outbox-test-a');
    const busB = kafkaBus('payout-outbox-test-b');
    buses.push(busA, busB);
    relay({ pool, schema: name, bus: busA, batchSize: 20 });
    relay({ pool, schema: name, bus: busB, batchSize: 20 });

    // Written while both run: each commit's NOTIFY wakes both, they race for the rows.
    const txns = Array.from({ length: 300 }, (_, i) =>
      terminalTransaction(i % 3 === 0 ? 'failed' : 'completed'),
    );
    const keys = new Set(txns.map((txn) => txn.id));
    const eventIds = (
      await Promise.all(
        [0, 1, 2, 3].map((part) =>
          appendCommitted(
            pool,
            txns.filter((_, i) => i % 4 === part),
          ),
        ),
      )
    ).flat();

    await waitUntil(
      'every event on Kafka',
      () => withKeys(consumed.messages, keys).length >= txns.length,
      60_000,
    );
    await waitUntil('every row marked published', async () =>
      (await outboxRows(pool)).every((row) => row.published),
    );
    await sleep(500);
    const counts = countBy(eventIdsOf(withKeys(consumed.messages, keys)));
    expect([...counts.keys()].sort()).toEqual([...eventIds].sort());
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
  });
});
