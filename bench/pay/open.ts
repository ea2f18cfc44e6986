// The open-loop part of bench/pay (bench/README.md "pay"): pays at a fixed arrival rate, latency
// from each pay's due time, the CPU each process spends per pay over the measured window, and the
// rows each pay writes over the warm-up and the measured window.
import { percentile } from '../gateway/load';
import { cpuBetween, sampleCpu } from '../shared/cpu';
import { countTransactions, type PayBenchContext, STATS_FLUSH_MS, sleep } from './context';
import { runPayOpenLoop } from './open-loop';
import { cpuPerPay, judgeOpenLoop, type OpenLoopSummary } from './open-report';
import { BASELINE_SCHEMA } from './pgbench';
import { readCommits, readRowWrites, rowWritesPerUnit } from './row-writes';

export interface OpenLoopOptions {
  ratePerSec: number;
  seconds: number;
  warmupSeconds: number;
  maxInFlight: number;
}

export async function measureOpenLoop(ctx: PayBenchContext, opts: OpenLoopOptions): Promise<OpenLoopSummary> {
  const load = {
    gatewayUrl: ctx.gatewayUrl,
    apiKey: ctx.apiKey,
    body: ctx.body,
    ratePerSec: opts.ratePerSec,
    maxInFlight: opts.maxInFlight,
  };
  console.log(
    `open loop: ${opts.ratePerSec} pays/s, ${opts.warmupSeconds} s warm-up + ${opts.seconds} s measured`,
  );
  // Earlier work's table counters are reported before the "before" reading. The system is idle
  // meanwhile: what it burns with no pay at all (polls, heartbeats, timers) is measured too.
  const idleStart = sampleCpu(ctx.system.processes, ctx.cpuScope);
  await sleep(STATS_FLUSH_MS);
  const idle = cpuBetween(idleStart, sampleCpu(ctx.system.processes, ctx.cpuScope));
  const schemas = { except: [BASELINE_SCHEMA] };
  const writesBefore = await readRowWrites(ctx.system.databaseUrl, schemas);
  const commitsBefore = await readCommits(ctx.system.databaseUrl);
  const transactionsBefore = await countTransactions(ctx);

  await runPayOpenLoop({ ...load, durationMs: opts.warmupSeconds * 1000 });
  const cpuStart = sampleCpu(ctx.system.processes, ctx.cpuScope);
  const run = await runPayOpenLoop({ ...load, durationMs: opts.seconds * 1000 });
  const cpu = cpuBetween(cpuStart, sampleCpu(ctx.system.processes, ctx.cpuScope));
  console.log(`  measured: ${run.sent} pays sent, ${run.completedIds.length} answered completed`);

  await sleep(STATS_FLUSH_MS);
  const writesAfter = await readRowWrites(ctx.system.databaseUrl, schemas);
  const commitsAfter = await readCommits(ctx.system.databaseUrl);
  const made = (await countTransactions(ctx)) - transactionsBefore;

  const latencies = Float64Array.from(run.latenciesMs);
  const perSec = run.sent / (run.durationMs / 1000);
  return judgeOpenLoop({
    ratePerSec: opts.ratePerSec,
    seconds: opts.seconds,
    warmupSeconds: opts.warmupSeconds,
    maxInFlight: opts.maxInFlight,
    pays: {
      sent: run.sent,
      perSec,
      byHttpStatus: run.byHttpStatus,
      byTransactionStatus: run.byTransactionStatus,
      errors: run.errors,
      unexpected: run.unexpected,
      p50Ms: percentile(latencies, 0.5),
      p90Ms: percentile(latencies, 0.9),
      p99Ms: percentile(latencies, 0.99),
      maxMs: percentile(latencies, 1),
      capHits: run.capHits,
      maxInFlightSeen: run.maxInFlightSeen,
      maxSendLagMs: run.maxSendLagMs,
    },
    cpu: cpuPerPay(cpu, idle, perSec),
    writes: rowWritesPerUnit(writesBefore, writesAfter, made),
    commitsPerPay: (commitsAfter - commitsBefore) / made,
  });
}
