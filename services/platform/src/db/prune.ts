// Retention (docs/operators.md "Retention"): tables that only grow (published outbox events, expired
// idempotency keys and quotes, finished webhook deliveries) are pruned by one kind of job. Each batch
// is one short transaction that deletes at most `batchSize` old rows picked with FOR UPDATE SKIP
// LOCKED, so a row the hot path holds is skipped rather than waited for, and nothing else the hot
// path takes is locked; batches are paused between, so a backlog of millions drains without a long
// transaction or a burst of I/O.
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { bool, int } from '../config';
import type { Logger } from '../logger';
import { runWorkerLoop } from '../shutdown';
import { withTransaction } from './pool';

export type PruneJobOptions = {
  pool: pg.Pool;
  /** Names the job in logs and its advisory lock, e.g. `outbox_events`. */
  name: string;
  /**
   * A DELETE of at most `$1` rows (the batch size), the rest of its parameters from `params`. It
   * picks its rows with `ORDER BY <age> LIMIT $1 FOR UPDATE SKIP LOCKED` over an index on the
   * age column, and its row count is what it deleted.
   */
  statement: string;
  /** `$2`, `$3`, …: e.g. the retention in milliseconds. */
  params?: readonly unknown[];
  batchSize: number;
  /** Between rounds: a round deletes batches until one comes back short. */
  intervalMs: number;
  /** Between two batches of a round. */
  pauseMs: number;
  logger: Logger;
};

export type PruneJob = {
  /**
   * One round: batches until one comes back short, another replica holds the job, or `signal`
   * aborts (checked between batches). Resolves with how many rows it deleted.
   */
  pruneRound(signal?: AbortSignal): Promise<number>;
};

// A batch waits at most this long for a table lock (only DDL conflicts with a DELETE's) and runs at
// most this long: a prune gives way and tries again next round rather than queue ahead of the
// hot path.
const LOCK_TIMEOUT_MS = 1_000;
const STATEMENT_TIMEOUT_MS = 30_000;
// The DELETE's client-side deadline (pg query_timeout, instead of the pool's): past the server's
// statement_timeout, so a slow batch ends with the server's error; a silent link still ends.
const DELETE_QUERY_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 5_000;

/**
 * A prune job's rounds, without a loop (tests and tools call pruneRound; runPruneJob schedules
 * it). Safe with any number of replicas: each batch takes the job's transaction-scoped advisory
 * lock (per schema and name) with pg_try_advisory_xact_lock, and a replica that finds it taken ends
 * its round, leaving the work to the one holding it. Even without it, SKIP LOCKED keeps two
 * replicas from deleting the same rows.
 */
export function createPruneJob(opts: PruneJobOptions): PruneJob {
  const log = opts.logger.child({ prune_job: opts.name });
  const params = [opts.batchSize, ...(opts.params ?? [])];

  /** Deleted rows of one batch; undefined when another replica holds the job's lock. */
  async function deleteBatch(): Promise<number | undefined> {
    return withTransaction(opts.pool, async (client) => {
      await client.query(
        `SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`,
      );
      const { rows } = await client.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_xact_lock(hashtextextended('prune:' || current_schema() || ':' || $1, 0)) AS locked`,
        [opts.name],
      );
      if (!rows[0]?.locked) return undefined;
      const { rowCount } = await client.query({
        text: opts.statement,
        values: params,
        query_timeout: DELETE_QUERY_TIMEOUT_MS,
      } as pg.QueryConfig);
      return rowCount ?? 0;
    });
  }

  return {
    async pruneRound(signal) {
      let total = 0;
      const started = Date.now();
      while (!signal?.aborted) {
        const deleted = await deleteBatch();
        if (deleted === undefined) break;
        total += deleted;
        if (deleted < opts.batchSize) break;
        await sleep(opts.pauseMs, undefined, { signal }).catch(() => undefined);
      }
      if (total > 0) log.info({ deleted: total, duration_ms: Date.now() - started }, 'pruned old rows');
      return total;
    },
  };
}

/**
 * Runs a prune job as a service worker: a round at once, then one every `intervalMs`; stop() ends
 * it after the batch in flight. A failed round is logged and retried next round.
 */
export function runPruneJob(opts: PruneJobOptions): ReturnType<typeof runWorkerLoop> {
  const job = createPruneJob(opts);
  return runWorkerLoop({
    round: (signal) => job.pruneRound(signal).then(() => false),
    intervalMs: opts.intervalMs,
    onError: (err) =>
      opts.logger.error({ err, prune_job: opts.name }, 'pruning old rows failed; retrying next round'),
  });
}

/**
 * The config every service's retention jobs share (docs/operators.md "Retention"), spread into its
 * loadConfig shape beside the retention periods of its own tables.
 */
export function pruneJobSettings() {
  return {
    // Every replica may run them (the advisory lock lets one work at a time); off for tools and
    // tests that must not delete.
    retentionEnabled: bool('RETENTION_ENABLED', { default: true }),
    retentionIntervalMs: int('RETENTION_INTERVAL_MS', { default: 60_000, min: 10 }),
    retentionBatchSize: int('RETENTION_BATCH_SIZE', { default: 1_000, min: 1, max: 100_000 }),
    retentionPauseMs: int('RETENTION_PAUSE_MS', { default: 100, min: 0, max: 60_000 }),
  };
}

/** The part of a service's config pruneJobSettings() read. */
export type PruneJobSettings = {
  retentionIntervalMs: number;
  retentionBatchSize: number;
  retentionPauseMs: number;
};

/** What a service says of one table it prunes; the rest comes from its PruneJobSettings. */
export type PrunedTable = Pick<PruneJobOptions, 'name' | 'statement' | 'params'> & {
  /** Instead of RETENTION_INTERVAL_MS. */
  intervalMs?: number;
};

/** The full options of a table's prune job under the service's settings. */
export function pruneJobOptions(
  pool: pg.Pool,
  logger: Logger,
  settings: PruneJobSettings,
  table: PrunedTable,
): PruneJobOptions {
  return {
    pool,
    logger,
    name: table.name,
    statement: table.statement,
    params: table.params ?? [],
    batchSize: settings.retentionBatchSize,
    pauseMs: settings.retentionPauseMs,
    intervalMs: table.intervalMs ?? settings.retentionIntervalMs,
  };
}

/** Starts one prune job per table, as service workers (startWorkers of serveGrpc). */
export function runPruneJobs(
  pool: pg.Pool,
  logger: Logger,
  settings: PruneJobSettings,
  tables: readonly PrunedTable[],
): { stop(): Promise<void> }[] {
  return tables.map((table) => runPruneJob(pruneJobOptions(pool, logger, settings, table)));
}
