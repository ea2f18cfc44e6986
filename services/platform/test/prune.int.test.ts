// The batched prune job (docs/operators.md "Retention") against real PostgreSQL: it deletes only
// what its statement selects, batch by batch, skips rows another transaction holds instead of
// waiting, lets one replica work at a time, and leaves writes of live rows unblocked meanwhile.
import { randomBytes } from 'node:crypto';
import { createPgPool } from '@qr-payout/platform/db';
import { silentLogger } from '@qr-payout/platform/log';
import { testInfra } from '@qr-payout/test-kit/infra';
import type pg from 'pg';
import { createPruneJob, type PruneJobOptions, runPruneJob } from '../src/db/prune';

jest.setTimeout(60_000);

// Events with a finish time: a finished one older than $2 ms goes; an unfinished one never does.
const PRUNE_OLD_FINISHED = `
  DELETE FROM events WHERE id IN (
    SELECT id FROM events
     WHERE finished_at IS NOT NULL
       AND finished_at < now() - $2::double precision * interval '1 millisecond'
     ORDER BY finished_at
     LIMIT $1 FOR UPDATE SKIP LOCKED
  )`;

const DAY_MS = 86_400_000;

describe('prune jobs (real PostgreSQL)', () => {
  const schema = `platform_prune_${randomBytes(6).toString('hex')}`;
  let pool: pg.Pool;

  beforeAll(async () => {
    pool = createPgPool({ connectionString: testInfra.databaseUrl, schema, max: 6 });
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await pool.query(
      `CREATE TABLE events (
         id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
         finished_at timestamptz,
         note text NOT NULL DEFAULT ''
       );
       CREATE INDEX events_finished_idx ON events (finished_at) WHERE finished_at IS NOT NULL`,
    );
  });

  beforeEach(() => pool.query('TRUNCATE events'));

  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  function options(overrides: Partial<PruneJobOptions> = {}): PruneJobOptions {
    return {
      pool,
      name: 'events',
      statement: PRUNE_OLD_FINISHED,
      params: [7 * DAY_MS],
      batchSize: 100,
      pauseMs: 0,
      intervalMs: 60_000,
      logger: silentLogger(),
      ...overrides,
    };
  }

  /** `n` rows finished `ageDays` ago (NULL: unfinished, created that long ago is irrelevant). */
  async function seed(n: number, ageDays: number | null): Promise<void> {
    await pool.query(
      `INSERT INTO events (finished_at)
       SELECT CASE WHEN $2::int IS NULL THEN NULL ELSE now() - $2::int * interval '1 day' END
         FROM generate_series(1, $1::int)`,
      [n, ageDays],
    );
  }

  async function counts(): Promise<{ old: number; young: number; unfinished: number }> {
    const { rows } = await pool.query<{ old: number; young: number; unfinished: number }>(
      `SELECT count(*) FILTER (WHERE finished_at < now() - interval '7 days')::int AS old,
              count(*) FILTER (WHERE finished_at >= now() - interval '7 days')::int AS young,
              count(*) FILTER (WHERE finished_at IS NULL)::int AS unfinished
         FROM events`,
    );
    return rows[0]!;
  }

  it('deletes every old row in batches and leaves young and unfinished rows', async () => {
    await seed(1_050, 8);
    await seed(30, 6);
    await seed(20, null);
    const deleted = await createPruneJob(options({ batchSize: 100 })).pruneRound();
    expect(deleted).toBe(1_050);
    expect(await counts()).toEqual({ old: 0, young: 30, unfinished: 20 });
    expect(await createPruneJob(options()).pruneRound()).toBe(0);
  });

  it('skips a row another transaction holds rather than waiting for it, and takes it next round', async () => {
    await seed(5, 8);
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      const { rows } = await holder.query<{ id: string }>(
        'SELECT id FROM events ORDER BY id LIMIT 1 FOR UPDATE',
      );
      const started = Date.now();
      expect(await createPruneJob(options()).pruneRound()).toBe(4);
      expect(Date.now() - started).toBeLessThan(1_000);
      const left = await pool.query<{ id: string }>('SELECT id FROM events');
      expect(left.rows).toEqual(rows);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    expect(await createPruneJob(options()).pruneRound()).toBe(1);
  });

  it('lets one replica work at a time: a round that finds the job locked ends at once', async () => {
    await seed(10, 8);
    const other = await pool.connect();
    try {
      // What another replica's batch holds while it deletes.
      await other.query('BEGIN');
      await other.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('prune:' || current_schema() || ':' || 'events', 0))`,
      );
      expect(await createPruneJob(options()).pruneRound()).toBe(0);
      // Another job name is another lock.
      expect(await createPruneJob(options({ name: 'events_other' })).pruneRound()).toBe(10);
      await other.query('COMMIT');
    } finally {
      other.release();
    }
  });

  it('two replicas pruning at once delete everything once, with no error', async () => {
    await seed(2_000, 8);
    const [a, b] = await Promise.all([
      createPruneJob(options({ batchSize: 50 })).pruneRound(),
      createPruneJob(options({ batchSize: 50 })).pruneRound(),
    ]);
    // A round that found the lock taken ended early; whatever is left goes on the next round.
    const rest = await createPruneJob(options({ batchSize: 50 })).pruneRound();
    expect(a + b + rest).toBe(2_000);
    expect((await counts()).old).toBe(0);
  });

  it('does not block inserts and updates of live rows while a large prune runs', async () => {
    await seed(100_000, 8);
    await seed(200, null);
    const { rows: live } = await pool.query<{ id: string }>(
      'SELECT id FROM events WHERE finished_at IS NULL ORDER BY id LIMIT 200',
    );
    const job = createPruneJob(options({ batchSize: 5_000 }));
    let pruning = true;
    const prune = job.pruneRound().finally(() => {
      pruning = false;
    });
    const writes: number[] = [];
    let i = 0;
    // The hot path: new rows and updates of unfinished ones, one statement each, while pruning.
    while (pruning && i < live.length) {
      const started = performance.now();
      await pool.query(`INSERT INTO events (note) VALUES ('new')`);
      await pool.query(`UPDATE events SET note = 'touched' WHERE id = $1`, [live[i]!.id]);
      writes.push(performance.now() - started);
      i++;
    }
    expect(await prune).toBe(100_000);
    expect(writes.length).toBeGreaterThan(0);
    // A blocked write would wait for a whole batch's transaction; these take a round trip or two.
    expect(Math.max(...writes)).toBeLessThan(1_000);
    expect(await counts()).toEqual({ old: 0, young: 0, unfinished: 200 + writes.length });
  });

  it('runs as a worker: a round at once, then stops at stop()', async () => {
    await seed(120, 8);
    const worker = runPruneJob(options({ intervalMs: 60_000 }));
    const deadline = Date.now() + 10_000;
    while ((await counts()).old > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await worker.stop();
    expect((await counts()).old).toBe(0);
  });
});
