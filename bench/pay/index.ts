// Pay benchmark (bench/README.md "pay"): POST /v1/pay sustained at a fixed concurrency through the
// whole system (every service its own process, real PostgreSQL, Redis and Kafka, the partner
// simulator settling within milliseconds), terminal commit → Kafka latency read back by our own
// consumer, and a same-run pgbench baseline doing one payment's row writes per script.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import pg from 'pg';
import { REPO_ROOT, startSystem } from '../../test-e2e/harness';
import { PAYER, PIX_WITHOUT_AMOUNT } from '../../test-e2e/support/pay';
import { startTransactionEventReader } from '../../test-e2e/support/transaction-events';
import { percentile } from '../gateway/load';
import { cpuBetween, formatCpuTable, sampleCpu } from '../shared/cpu';
import { runPayLoad } from './load';
import { BASELINE_SCHEMA, prepareBaselineTables, runPgbench } from './pgbench';
import { formatReport, judge, writeResults } from './report';
import { readCommits, readRowWrites, rowWritesPerUnit } from './row-writes';

export interface PayBenchOptions {
  durationSeconds: number;
  warmupSeconds: number;
  concurrency: number;
  /** PARTNER_SIM_SETTLE_MS: the simulator's delay from acceptance to settlement (and callback). */
  settleMs: number;
  /** Where the gateway, payout and the simulator write V8 CPU profiles (unset: no profiling). */
  cpuProfileDir?: string;
}

// The admin API's maximum: nothing is refused at these rates, but the limiter still runs.
const BENCH_RATE_LIMIT = 1_000_000;
// Every service with its own default pool (the e2e harness gives tests 4 connections each).
const POOL = { DB_POOL_MAX: '10' };
// PostgreSQL reports a backend's table counters when it has been idle ~10 s, or when it exits.
const STATS_FLUSH_MS = 12_000;
const SCHEMAS = ['gateway', 'payout', 'fx', 'decoder', 'webhook'];
// An amount whose last two digits (00) select the default outcome: completed through the callback.
const AMOUNT = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function latencyPercentiles(samples: number[]) {
  const all = Float64Array.from(samples);
  return { p50Ms: percentile(all, 0.5), p99Ms: percentile(all, 0.99) };
}

export async function runPayBench(opts: PayBenchOptions): Promise<boolean> {
  console.log('starting the system (every service its own process, LOG_LEVEL=warn, telemetry off)...');
  // BENCH_CPU_PROF_DIR: the gateway, payout and the simulator write V8 CPU profiles there on exit.
  const profile: NodeJS.ProcessEnv = opts.cpuProfileDir
    ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(opts.cpuProfileDir)}` }
    : {};
  const system = await startSystem({
    logLevel: 'warn',
    gatewayEnv: { ...POOL, ...profile },
    serviceEnv: { decoder: POOL, fx: POOL, payout: { ...POOL, ...profile }, webhook: POOL },
    partnerSimEnv: { PARTNER_SIM_SETTLE_MS: String(opts.settleMs), ...profile },
  });
  const reader = await startTransactionEventReader((process.env.KAFKA_BROKERS as string).split(','));
  const db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
  try {
    const tenant = await system.createTenant(`bench-pay-${randomBytes(4).toString('hex')}`, BENCH_RATE_LIMIT);
    const body = JSON.stringify({ qr_string: PIX_WITHOUT_AMOUNT, amount: AMOUNT, ...PAYER });
    const load = {
      gatewayUrl: system.gatewayUrl,
      apiKey: tenant.apiKey,
      body,
      concurrency: opts.concurrency,
    };

    const probe = await runPayLoad({ ...load, concurrency: 1, durationMs: 1 });
    if (probe.byTransactionStatus.completed !== probe.responses)
      throw new Error(`a single pay did not complete: ${JSON.stringify(probe)}`);

    // The probe's and the setup's counters are reported before the "before" reading.
    await sleep(STATS_FLUSH_MS);
    const writesBefore = await readRowWrites(system.databaseUrl, SCHEMAS);
    const commitsBefore = await readCommits(system.databaseUrl);
    console.log(
      `c=${opts.concurrency}, ${opts.warmupSeconds} s warm-up + ${opts.durationSeconds} s measured, ` +
        `partner settles after ${opts.settleMs} ms`,
    );
    await runPayLoad({ ...load, durationMs: opts.warmupSeconds * 1000 });
    const cpuStart = sampleCpu(system.processes);
    const measured = await runPayLoad({ ...load, durationMs: opts.durationSeconds * 1000 });
    const cpu = cpuBetween(cpuStart, sampleCpu(system.processes));
    const completed = measured.latenciesMs.length;
    console.log(`  measured: ${completed} pays completed in ${(measured.durationMs / 1000).toFixed(1)} s`);

    // Every terminal transaction of the run's tenant, then its events (they trail the answers).
    const { rows: terminal } = await db.query<{ id: string }>(
      `SELECT id FROM payout.transactions WHERE tenant_id = $1 AND status IN ('completed', 'failed')`,
      [tenant.tenantId],
    );
    const { rows: counted } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM payout.transactions WHERE tenant_id = $1',
      [tenant.tenantId],
    );
    const ofTenant = () => reader.events.filter((e) => e.event.tenantId === tenant.tenantId);
    const flushUntil = Date.now() + STATS_FLUSH_MS;
    const eventsDeadline = Date.now() + 60_000;
    while (ofTenant().length < terminal.length && Date.now() < eventsDeadline) await sleep(200);
    await sleep(Math.max(0, flushUntil - Date.now()));
    const writesAfter = await readRowWrites(system.databaseUrl, SCHEMAS);
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

    console.log(`baseline: pgbench, ${opts.concurrency} clients, ${opts.durationSeconds} s...`);
    await prepareBaselineTables(system.databaseUrl);
    const baselineBefore = await readRowWrites(system.databaseUrl, [BASELINE_SCHEMA]);
    const baselineCommitsBefore = await readCommits(system.databaseUrl);
    const baseline = await runPgbench({
      databaseUrl: system.databaseUrl,
      clients: opts.concurrency,
      seconds: opts.durationSeconds,
    });
    // pgbench's backends exited: their counters are reported; give the collector a moment.
    await sleep(1_000);
    const baselineAfter = await readRowWrites(system.databaseUrl, [BASELINE_SCHEMA]);
    const baselineCommits = (await readCommits(system.databaseUrl)) - baselineCommitsBefore;
    const paysMade = Number(counted[0]?.n ?? 0) - probe.responses;

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
        ratio: perSec / baseline.scriptsPerSec,
      },
      opts.concurrency,
    );
    console.log(`\n${formatReport(summary)}`);
    console.log('\nCPU during the measured window (cores, average):');
    console.log(formatCpuTable(cpu, perSec, 'pay'));
    const file = writeResults(REPO_ROOT, { ...opts, amount: AMOUNT, cpu }, summary);
    console.log(`\nresults written to ${path.relative(REPO_ROOT, file)}`);
    return summary.pass.all;
  } finally {
    await db.end();
    await reader.stop();
    await system.stop();
  }
}
