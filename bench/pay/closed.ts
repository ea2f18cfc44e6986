// The closed-loop part of bench/pay (bench/README.md "pay"): `concurrency` callers sustained for
// the duration, terminal commit → Kafka latency read back by our own consumer, and the same-run
// pgbench baseline doing one payment's row writes per script.
import { timestampDate } from '@bufbuild/protobuf/wkt';
import {
  startTransactionEventReader,
  type TransactionEventReader,
} from '../../test-e2e/support/transaction-events';
import { percentile } from '../gateway/load';
import { cpuBetween, DATABASE_BACKENDS, POSTGRES_CLUSTER, sampleCpu } from '../shared/cpu';
import { countTransactions, type PayBenchContext, STATS_FLUSH_MS, sleep } from './context';
import { runPayLoad } from './load';
import { BASELINE_SCHEMA, prepareBaselineTables, runPgbench } from './pgbench';
import { judge, type PaySummary } from './report';
import { readCommits, readRowWrites, rowWritesPerUnit } from './row-writes';

export interface ClosedLoopOptions {
  seconds: number;
  warmupSeconds: number;
  concurrency: number;
}

function latencyPercentiles(samples: number[]) {
  const all = Float64Array.from(samples);
  return { p50Ms: percentile(all, 0.5), p99Ms: percentile(all, 0.99) };
}

/** PostgreSQL's CPU ms per unit of work from cpuBetween's rows (its cores × 1000 ÷ units per second). */
function postgresMsPer(rows: ReturnType<typeof cpuBetween>, perSec: number): number {
  // The run's database's backends where measured; pgbench's backends exit before the window's
  // last sample, so the baseline has only the cluster's figure.
  const row = rows.find((r) => r.name === DATABASE_BACKENDS) ?? rows.find((r) => r.name === POSTGRES_CLUSTER);
  const cores = row?.cores ?? Number.NaN;
  return (cores * 1000) / perSec;
}

export async function measureClosedLoop(
  ctx: PayBenchContext,
  opts: ClosedLoopOptions,
): Promise<{ summary: PaySummary; cpu: ReturnType<typeof cpuBetween> }> {
  // The closed part's own reader of the events (the open loop runs without one, as production has
  // only the webhook service's consumer): it sees the events of the pays made from here on.
  const reader = await startTransactionEventReader((process.env.KAFKA_BROKERS as string).split(','));
  try {
    return await measureWithReader(ctx, opts, reader);
  } finally {
    await reader.stop();
  }
}

async function measureWithReader(
  ctx: PayBenchContext,
  opts: ClosedLoopOptions,
  reader: TransactionEventReader,
): Promise<{ summary: PaySummary; cpu: ReturnType<typeof cpuBetween> }> {
  const { system, db, tenantId } = ctx;
  const load = {
    gatewayUrl: ctx.gatewayUrl,
    apiKey: ctx.apiKey,
    body: ctx.body,
    concurrency: opts.concurrency,
  };
  const startedAt = new Date();
  // Earlier work's table counters are reported before the "before" reading.
  await sleep(STATS_FLUSH_MS);
  const schemas = { except: [BASELINE_SCHEMA] };
  const writesBefore = await readRowWrites(system.databaseUrl, schemas);
  const commitsBefore = await readCommits(system.databaseUrl);
  const transactionsBefore = await countTransactions(ctx);
  console.log(
    `closed loop: c=${opts.concurrency}, ${opts.warmupSeconds} s warm-up + ${opts.seconds} s measured`,
  );
  await runPayLoad({ ...load, durationMs: opts.warmupSeconds * 1000 });
  const cpuStart = sampleCpu(system.processes, ctx.cpuScope);
  const measured = await runPayLoad({ ...load, durationMs: opts.seconds * 1000 });
  const cpu = cpuBetween(cpuStart, sampleCpu(system.processes, ctx.cpuScope));
  const completed = measured.latenciesMs.length;
  console.log(`  measured: ${completed} pays completed in ${(measured.durationMs / 1000).toFixed(1)} s`);

  // Every terminal transaction of the tenant made in this part, then its events (they trail the
  // answers).
  const { rows: terminal } = await db.query<{ id: string }>(
    `SELECT id FROM payout.transactions
      WHERE tenant_id = $1 AND status IN ('completed', 'failed') AND created_at >= $2`,
    [tenantId, startedAt],
  );
  const paysMade = (await countTransactions(ctx)) - transactionsBefore;
  const ofTenant = () => reader.events.filter((e) => e.event.tenantId === tenantId);
  const flushUntil = Date.now() + STATS_FLUSH_MS;
  const eventsDeadline = Date.now() + 60_000;
  while (ofTenant().length < terminal.length && Date.now() < eventsDeadline) await sleep(200);
  await sleep(Math.max(0, flushUntil - Date.now()));
  const writesAfter = await readRowWrites(system.databaseUrl, schemas);
  // Read before the baseline starts: its own commits are counted apart.
  const commitsAfter = await readCommits(system.databaseUrl);

  const events = ofTenant();
  const perKey = new Map<string, number>();
  for (const e of events) perKey.set(e.key, (perKey.get(e.key) ?? 0) + 1);
  const missing = terminal.filter((t) => !perKey.has(t.id)).length;
  const duplicates = [...perKey.values()].reduce((n, c) => n + c - 1, 0);
  const inWindow = events.filter((e) => {
    const occurred = timestampDate(e.event.occurredAt!).getTime();
    return occurred >= measured.startedAtMs && occurred <= measured.endedAtMs;
  });
  const fromOccurred = inWindow.map((e) => e.receivedAtMs - timestampDate(e.event.occurredAt!).getTime());
  const fromUpdated = inWindow.map(
    (e) => e.receivedAtMs - timestampDate(e.event.transaction!.updatedAt!).getTime(),
  );

  console.log(`baseline: pgbench, ${opts.concurrency} clients, ${opts.seconds} s...`);
  const tables = await prepareBaselineTables(system.databaseUrl);
  const baselineSchema = { only: [BASELINE_SCHEMA] };
  const baselineBefore = await readRowWrites(system.databaseUrl, baselineSchema);
  const baselineCommitsBefore = await readCommits(system.databaseUrl);
  const baselineCpuStart = sampleCpu([], { postmasterPid: ctx.postmasterPid });
  const baseline = await runPgbench({
    databaseUrl: system.databaseUrl,
    clients: opts.concurrency,
    seconds: opts.seconds,
    tables,
  });
  const baselineCpu = cpuBetween(baselineCpuStart, sampleCpu([], { postmasterPid: ctx.postmasterPid }));
  // pgbench's backends exited: their counters are reported; give the collector a moment.
  await sleep(1_000);
  const baselineAfter = await readRowWrites(system.databaseUrl, baselineSchema);
  const baselineCommits = (await readCommits(system.databaseUrl)) - baselineCommitsBefore;

  const perSec = completed / (measured.durationMs / 1000);
  const summary = judge(
    {
      pays: {
        perSec,
        completed,
        ...latencyPercentiles([...measured.latenciesMs]),
        byHttpStatus: measured.byHttpStatus,
        byTransactionStatus: measured.byTransactionStatus,
        errors: measured.errors,
      },
      kafka: {
        events: events.length,
        fromOccurredAt: latencyPercentiles(fromOccurred),
        fromUpdatedAt: latencyPercentiles(fromUpdated),
        missing,
        duplicates,
      },
      baseline,
      writes: {
        pay: rowWritesPerUnit(writesBefore, writesAfter, paysMade),
        baseline: rowWritesPerUnit(baselineBefore, baselineAfter, baseline.scripts),
      },
      commitsPerPayment: {
        pay: (commitsAfter - commitsBefore) / paysMade,
        baseline: baselineCommits / baseline.scripts,
      },
      postgresCpuMsPerPayment: {
        pay: postgresMsPer(cpu, perSec),
        baseline: postgresMsPer(baselineCpu, baseline.scriptsPerSec),
      },
      ratio: perSec / baseline.scriptsPerSec,
    },
    opts.concurrency,
  );
  return { summary, cpu };
}
