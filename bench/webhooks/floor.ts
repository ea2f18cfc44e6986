// Part A's third target (bench/README.md "webhooks"): the PostgreSQL floor, the least database work
// a durable delivery needs with these statements, in the same run. No HTTP, no Kafka, no signing:
// on a fresh database migrated with the webhook service's own migrations, the bench process calls
// the service's own statements (services/webhook/src/deliveries/store.ts) through a pg pool of the
// service's size, batched as the service batches them:
//   - one inserter: store.insertDeliveries, 500 rows per statement (the dispatcher's batch);
//   - `loops` claim loops side by side: store.claimDueDeliveries of up to 32 (the worker's
//     concurrency), then each claimed delivery recorded as a success through the worker's own
//     grouping (delivered-batch.ts: store.finishDelivered, up to 64 per statement, 2 ms window).
// Left out, so that the floor is if anything too high: the dispatcher's read of the tenant's
// endpoints per Kafka batch, and everything that is not PostgreSQL.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { newId } from '@qr-payout/platform/ids';
import pg from 'pg';
import { createDeliveredBatcher } from '../../services/webhook/src/deliveries/delivered-batch';
import { transactionEventBody } from '../../services/webhook/src/deliveries/envelope';
import * as store from '../../services/webhook/src/deliveries/store';
import { REPO_ROOT } from '../../test-e2e/harness';
import { createRunDatabase } from '../../test-e2e/harness/database';
import { type RowWritesPerUnit, readRowWrites, rowWritesPerUnit } from '../pay/row-writes';
import { cpuBetween, sampleCpu } from '../shared/cpu';
import { type CpuRows, type Distribution, distribution } from './distribution';
import { syntheticEvent } from './events';

export interface FloorOptions {
  /** Deliveries in the measured window, and in the discarded warm-up before it. */
  events: number;
  warmupEvents: number;
  /** Rows per insert (the dispatcher's batch, BENCH_WEBHOOKS_BATCH). */
  insertBatch: number;
  /** Rows per claim (the worker's WEBHOOK_WORKER_CONCURRENCY). */
  claimLimit: number;
  /** Claim loops side by side (BENCH_WEBHOOKS_FLOOR_LOOPS). */
  loops: number;
  /** The pool's size (the service's DB_POOL_MAX). */
  poolMax: number;
}

export interface FloorSummary {
  loops: number;
  poolMax: number;
  insertBatch: number;
  claimLimit: number;
  deliveries: number;
  seconds: number;
  perSec: number;
  /** Per delivery: its insert statement sent → its success recorded (queueing included). */
  latency: Distribution;
  /** Deliveries whose success was not recorded (a lost lease: none expected). */
  problems: number;
  /** Statements of the measured window and the rows they carried on average. */
  statements: {
    inserts: number;
    claims: number;
    emptyClaims: number;
    rowsPerClaim: number;
    finishes: number;
    rowsPerFinish: number;
  };
  /** As the system's: committed transactions and row writes per delivery, warm-up included. */
  commitsPerDelivery: number;
  writes: RowWritesPerUnit;
  cpu: CpuRows;
}

const SCHEMA = 'webhook';
const MIGRATIONS_DIR = path.join(REPO_ROOT, 'services', 'webhook', 'migrations');
const LEASE_MS = 60_000; // the service's WEBHOOK_LEASE_MS default
const now = () => performance.timeOrigin + performance.now();

/** Committed transactions of `database`, read on the server's own database (not counted there). */
export async function readCommits(serverUrl: string, database: string): Promise<number> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1',
      [database],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** The rows the dispatcher would insert for `count` completed events of one tenant and endpoint. */
function deliveriesFor(
  count: number,
  tenantId: string,
  endpoint: { id: string; url: string },
): store.NewDelivery[] {
  return Array.from({ length: count }, () => {
    const envelope = transactionEventBody(syntheticEvent(tenantId, new Date()));
    return {
      id: newId('whd'),
      tenantId,
      eventId: envelope.eventId,
      eventType: envelope.eventType,
      transactionId: envelope.transactionId,
      endpointId: endpoint.id,
      url: endpoint.url,
      retryStrategy: 'standard',
      payload: envelope.body,
      trigger: 'scheduled',
    };
  });
}

interface Pass {
  startedAtMs: number;
  endedAtMs: number;
  recorded: number;
  lost: number;
  latenciesMs: number[];
  inserts: number;
  claims: number;
  emptyClaims: number;
  claimedRows: number;
  finishes: number;
}

/** Inserts `rows` in batches while `loops` claim loops claim and record them, until all are recorded. */
async function runPass(pool: pg.Pool, rows: store.NewDelivery[], opts: FloorOptions): Promise<Pass> {
  // The worker's own grouping of successes, on a pool that counts its statements.
  let finishes = 0;
  const counted = {
    query: (...args: Parameters<pg.Pool['query']>) => {
      finishes += 1;
      return (pool.query as (...a: unknown[]) => unknown)(...args);
    },
  } as unknown as pg.Pool;
  const delivered = createDeliveredBatcher(store.createDeliveryStore(counted));
  const deliveries = store.createDeliveryStore(pool);
  const insertedAt = new Map<string, number>();
  const pass: Pass = {
    startedAtMs: now(),
    endedAtMs: 0,
    recorded: 0,
    lost: 0,
    latenciesMs: [],
    inserts: 0,
    claims: 0,
    emptyClaims: 0,
    claimedRows: 0,
    finishes: 0,
  };
  // The dispatcher wakes the worker after each insert; an idle claim loop waits for that.
  let insertsDone = false;
  let wakeUp: () => void = () => undefined;
  let woken = new Promise<void>((resolve) => {
    wakeUp = resolve;
  });
  const wake = () => {
    const resolve = wakeUp;
    woken = new Promise<void>((r) => {
      wakeUp = r;
    });
    resolve();
  };

  const inserter = async () => {
    try {
      for (let start = 0; start < rows.length; start += opts.insertBatch) {
        const batch = rows.slice(start, start + opts.insertBatch);
        const sentAt = now();
        for (const row of batch) insertedAt.set(row.id, sentAt);
        const ids = await deliveries.insertDeliveries(batch);
        if (ids.length !== batch.length) throw new Error(`inserted ${ids.length} of ${batch.length} rows`);
        pass.inserts += 1;
        wake();
      }
    } finally {
      insertsDone = true;
      wake();
    }
  };

  const claimLoop = async () => {
    for (;;) {
      // Only a claim sent after the last insert committed may end the loop when it finds nothing.
      const finalClaim = insertsDone;
      const idle = woken;
      const leaseToken = randomBytes(16).toString('hex');
      const claimed = await deliveries.claimDueDeliveries({
        limit: opts.claimLimit,
        leaseMs: LEASE_MS,
        token: leaseToken,
      });
      pass.claims += 1;
      pass.claimedRows += claimed.length;
      if (claimed.length === 0) {
        pass.emptyClaims += 1;
        if (finalClaim) return;
        await idle;
        continue;
      }
      const outcomes = await Promise.all(
        claimed.map((delivery) =>
          delivered.record({
            deliveryId: delivery.id,
            leaseToken,
            trigger: delivery.trigger,
            startedAt: new Date(),
            durationMs: 1,
            succeeded: true,
            responseStatus: 200,
            responseExcerpt: 'ok',
            errorClass: null,
            error: null,
            resolvedAddress: '127.0.0.1',
            next: 'delivered',
            nextAttemptAt: null,
          }),
        ),
      );
      const at = now();
      pass.endedAtMs = at;
      outcomes.forEach((owned, i) => {
        if (!owned) {
          pass.lost += 1;
          return;
        }
        pass.recorded += 1;
        const sent = insertedAt.get(claimed[i]!.id);
        if (sent !== undefined) pass.latenciesMs.push(at - sent);
      });
    }
  };

  await Promise.all([inserter(), ...Array.from({ length: opts.loops }, claimLoop)]);
  pass.finishes = finishes;
  return pass;
}

export async function runPostgresFloor(opts: FloorOptions): Promise<FloorSummary> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set (npm run bench starts the infrastructure)');
  const database = await createRunDatabase(serverUrl);
  let pool: pg.Pool | undefined = createPgPool({
    connectionString: database.url,
    schema: SCHEMA,
    max: opts.poolMax,
    applicationName: 'bench-webhooks-floor',
  });
  try {
    await migrate(pool, { schema: SCHEMA, dir: MIGRATIONS_DIR });
    // One tenant with a signing secret and one enabled ['*'] endpoint, as the system's run makes
    // (the claim joins both). The secret is opaque bytes here: nothing is signed.
    const tenantId = `ten_bench${randomBytes(6).toString('hex')}`;
    const endpoint = { id: newId('whe'), url: 'http://127.0.0.1:1/system' };
    await pool.query('INSERT INTO signing_secrets (tenant_id, secret_sealed) VALUES ($1, $2)', [
      tenantId,
      randomBytes(72),
    ]);
    await pool.query(`INSERT INTO endpoints (id, tenant_id, url, event_types) VALUES ($1, $2, $3, '{*}')`, [
      endpoint.id,
      tenantId,
      endpoint.url,
    ]);
    // Every row is built before its pass, so the window holds only the statements.
    const commitsBefore = await readCommits(serverUrl, database.name);
    const writesBefore = await readRowWrites(database.url, { only: [SCHEMA] });
    const warmup = await runPass(pool, deliveriesFor(opts.warmupEvents, tenantId, endpoint), opts);
    const rows = deliveriesFor(opts.events, tenantId, endpoint);
    const cpuStart = sampleCpu([]);
    const measured = await runPass(pool, rows, opts);
    const cpu = cpuBetween(cpuStart, sampleCpu([])).map((row) =>
      row.name === 'bench (load generator)' ? { ...row, name: 'bench process (the floor statements)' } : row,
    );
    // The pool's backends report their counters when they exit.
    await pool.end();
    pool = undefined;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const units = warmup.recorded + measured.recorded;
    const commits = (await readCommits(serverUrl, database.name)) - commitsBefore;
    const writes = rowWritesPerUnit(
      writesBefore,
      await readRowWrites(database.url, { only: [SCHEMA] }),
      units,
    );
    const seconds = (measured.endedAtMs - measured.startedAtMs) / 1000;
    return {
      loops: opts.loops,
      poolMax: opts.poolMax,
      insertBatch: opts.insertBatch,
      claimLimit: opts.claimLimit,
      deliveries: measured.recorded,
      seconds,
      perSec: measured.recorded / seconds,
      latency: distribution(measured.latenciesMs),
      problems: rows.length - measured.recorded + measured.lost + warmup.lost,
      statements: {
        inserts: measured.inserts,
        claims: measured.claims,
        emptyClaims: measured.emptyClaims,
        rowsPerClaim: measured.claimedRows / Math.max(1, measured.claims - measured.emptyClaims),
        finishes: measured.finishes,
        rowsPerFinish: (measured.recorded + measured.lost) / Math.max(1, measured.finishes),
      },
      commitsPerDelivery: commits / units,
      writes,
      cpu,
    };
  } finally {
    await pool?.end().catch(() => undefined);
    await database.drop().catch(() => undefined);
  }
}
