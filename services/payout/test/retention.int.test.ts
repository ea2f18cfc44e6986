// The payout retention jobs (docs/operators.md "Retention") against the real schema: published
// outbox events older than OUTBOX_RETENTION_MS and expired idempotency keys go; young and
// unpublished events, live keys, transactions and instructions stay; the prune uses its index and
// leaves the pay path's writes (a terminal transition's outbox event) unblocked.
import { type PrunedTable, runPruneJobs, withTransaction } from '@qr-payout/platform/db';
import { silentLogger } from '@qr-payout/platform/log';
import { appendTransactionEvent } from '../src/outbox/store';
import { payoutPrunedTables } from '../src/retention/tables';
import { seedTransaction, tenant } from './fixtures';
import { migratedSchema, terminalTransaction } from './support/outbox';

jest.setTimeout(60_000);

const DAY_MS = 86_400_000;
const SETTINGS = { retentionIntervalMs: 60_000, retentionBatchSize: 500, retentionPauseMs: 0 };

describe('payout retention (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof migratedSchema>>;
  let tables: Record<string, PrunedTable>;

  beforeAll(async () => {
    db = await migratedSchema();
    tables = Object.fromEntries(
      payoutPrunedTables({ outboxRetentionMs: 7 * DAY_MS, idempotencyKeyReapMs: 60_000 }).map((t) => [
        t.name,
        t,
      ]),
    );
  });

  afterAll(() => db.drop());

  /**
   * Runs the `name` job (its first round starts at once) until `done` holds, calling `meanwhile`
   * in a loop while it runs; stops it after.
   */
  async function pruneUntil(
    name: string,
    done: () => Promise<boolean>,
    opts: { batchSize?: number; meanwhile?: () => Promise<void> } = {},
  ): Promise<void> {
    const settings = { ...SETTINGS, retentionBatchSize: opts.batchSize ?? SETTINGS.retentionBatchSize };
    const [job] = runPruneJobs(db.pool, silentLogger(), settings, [{ ...tables[name]!, intervalMs: 20 }]);
    try {
      const deadline = Date.now() + 30_000;
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error(`${name} not pruned within 30 s`);
        await (opts.meanwhile?.() ?? new Promise((resolve) => setTimeout(resolve, 20)));
      }
    } finally {
      await job!.stop();
    }
  }

  /** `n` outbox events created `createdDaysAgo` ago, published `publishedDaysAgo` ago (null: not yet). */
  async function seedEvents(n: number, createdDaysAgo: number, publishedDaysAgo: number | null) {
    await db.pool.query(
      `INSERT INTO outbox_events (event_id, event_type, topic, message_key, payload, created_at, published_at)
       SELECT gen_random_uuid(), 'transaction.completed', 'payout.transaction-events.v1', 'txn_seed',
              '\\x00'::bytea, now() - $2::int * interval '1 day',
              CASE WHEN $3::int IS NULL THEN NULL ELSE now() - $3::int * interval '1 day' END
         FROM generate_series(1, $1::int)`,
      [n, createdDaysAgo, publishedDaysAgo],
    );
  }

  async function outboxCounts() {
    const { rows } = await db.pool.query<{ old: number; young: number; unpublished: number }>(
      `SELECT count(*) FILTER (WHERE published_at < now() - interval '7 days')::int AS old,
              count(*) FILTER (WHERE published_at >= now() - interval '7 days')::int AS young,
              count(*) FILTER (WHERE published_at IS NULL)::int AS unpublished
         FROM outbox_events`,
    );
    return rows[0]!;
  }

  it('deletes published events past OUTBOX_RETENTION_MS; young and unpublished ones stay', async () => {
    await db.pool.query('TRUNCATE outbox_events');
    await seedEvents(1_200, 9, 8);
    await seedEvents(40, 7, 6);
    // Unpublished for a month (Kafka down): still the relay's work.
    await seedEvents(10, 30, null);
    await pruneUntil('outbox_events', async () => (await outboxCounts()).old === 0);
    expect(await outboxCounts()).toEqual({ old: 0, young: 40, unpublished: 10 });
  });

  it('the outbox prune reads outbox_events_published_idx, not the whole table', async () => {
    await seedEvents(5_000, 2, 1);
    await db.pool.query('ANALYZE outbox_events');
    const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN ${tables['outbox_events']!.statement}`.replace('$1', '500').replace('$2', String(7 * DAY_MS)),
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('outbox_events_published_idx');
    expect(plan).not.toMatch(/Seq Scan on outbox_events/);
  });

  it('deletes expired idempotency keys and keeps live keys and every transaction', async () => {
    const tenantId = tenant();
    const expired = await seedTransaction(db.pool, db.schema, tenantId);
    const live = await seedTransaction(db.pool, db.schema, tenantId);
    await db.pool.query(
      `INSERT INTO idempotency_keys (tenant_id, key, request_fingerprint, transaction_id, created_at, expires_at)
       VALUES ($1, 'old-key', 'fp', $2, now() - interval '25 hours', now() - interval '1 hour'),
              ($1, 'new-key', 'fp', $3, now(), now() + interval '23 hours')`,
      [tenantId, expired.transactionId, live.transactionId],
    );
    const keysOf = async () =>
      (await db.pool.query('SELECT key FROM idempotency_keys WHERE tenant_id = $1', [tenantId])).rows;
    await pruneUntil('idempotency_keys', async () => (await keysOf()).length === 1);
    const keys = await db.pool.query('SELECT key FROM idempotency_keys WHERE tenant_id = $1', [tenantId]);
    expect(keys.rows).toEqual([{ key: 'new-key' }]);
    const txns = await db.pool.query('SELECT count(*)::int AS n FROM transactions WHERE tenant_id = $1', [
      tenantId,
    ]);
    expect(txns.rows[0].n).toBe(2);
  });

  it('a large prune leaves the pay path unblocked: outbox appends and relay updates complete meanwhile', async () => {
    await db.pool.query('TRUNCATE outbox_events');
    await seedEvents(100_000, 9, 8);
    await seedEvents(20, 1, null);
    const writes: number[] = [];
    await pruneUntil('outbox_events', async () => writes.length > 0 && (await outboxCounts()).old === 0, {
      batchSize: 5_000,
      async meanwhile() {
        const started = performance.now();
        // A settlement's write: the terminal transition's event, appended and committed.
        await withTransaction(db.pool, (client) =>
          appendTransactionEvent(client, terminalTransaction('completed')),
        );
        // The relay's kind of update of the unpublished rows, which the prune must not hold.
        await db.pool.query(
          `UPDATE outbox_events SET attempts = attempts + 1
            WHERE id = (SELECT id FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT 1)`,
        );
        writes.push(performance.now() - started);
      },
    });
    // A blocked write would wait out a whole batch's transaction; these take a round trip or two.
    expect(Math.max(...writes)).toBeLessThan(1_000);
    expect(await outboxCounts()).toEqual({ old: 0, young: 0, unpublished: 20 + writes.length });
  });
});
