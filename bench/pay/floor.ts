// The open loop's floors (bench/README.md "pay": the floors): the same open loop as ./open.ts, at
// the same rate, warm-up and length and with the same body, through the pay skeleton (./skeleton)
// at one of its levels, with the CPU per pay of its processes and of PostgreSQL (its own database),
// Redis and Kafka. Run before the system starts, so that the shared Kafka and Redis rows carry the
// skeleton's work and not the system's.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from '../gateway/load';
import { cpuBetween, postmasterPidOf, sampleCpu } from '../shared/cpu';
import { STATS_FLUSH_MS, sleep } from './context';
import type { OpenLoopOptions } from './open';
import { runPayOpenLoop } from './open-loop';
import { cpuPerPay, FLOOR_COUNTED, type PayFloor } from './open-report';
import { type PaySkeleton, startPaySkeleton } from './skeleton';
import type { SkeletonLevelName } from './skeleton/levels';

export async function measurePayFloor(
  infra: { databaseUrl: string; redisUrl: string; kafkaBrokers: string; settleMs: number },
  opts: OpenLoopOptions,
  level: SkeletonLevelName,
  body: string,
): Promise<PayFloor> {
  console.log(`starting the pay skeleton at level ${level} (front, decoder, store, partner, consumer)...`);
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pay-skeleton-'));
  let skeleton: PaySkeleton | undefined;
  let failed = true;
  try {
    skeleton = await startPaySkeleton({ ...infra, logDir, level, body });
    const postmasterPid = await postmasterPidOf(skeleton.databaseUrl);
    const scope = { postmasterPid, database: new URL(skeleton.databaseUrl).pathname.slice(1) };
    const load = {
      gatewayUrl: skeleton.url,
      apiKey: 'skeleton',
      body,
      ratePerSec: opts.ratePerSec,
      maxInFlight: opts.maxInFlight,
    };
    console.log(
      `floor (${level}) open loop: ${opts.ratePerSec} pays/s, ${opts.warmupSeconds} s warm-up + ${opts.seconds} s measured`,
    );
    // Idle first, as ./open.ts measures the system's: the fixed part of each process's cost.
    const idleStart = sampleCpu(skeleton.processes, scope);
    await sleep(STATS_FLUSH_MS);
    const idle = cpuBetween(idleStart, sampleCpu(skeleton.processes, scope));
    await runPayOpenLoop({ ...load, durationMs: opts.warmupSeconds * 1000 });
    const cpuStart = sampleCpu(skeleton.processes, scope);
    const run = await runPayOpenLoop({ ...load, durationMs: opts.seconds * 1000 });
    const cpu = cpuBetween(cpuStart, sampleCpu(skeleton.processes, scope));
    console.log(
      `  floor (${level}) measured: ${run.sent} pays sent, ${run.completedIds.length} answered completed`,
    );
    const perSec = run.sent / (run.durationMs / 1000);
    const latencies = Float64Array.from(run.latenciesMs);
    failed = false;
    return {
      level,
      cpu: cpuPerPay(cpu, idle, perSec, FLOOR_COUNTED),
      sent: run.sent,
      perSec,
      completed: run.completedIds.length,
      errors: run.errors,
      unexpected: run.unexpected,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
    };
  } finally {
    await skeleton?.stop();
    // The logs are kept when the floor failed.
    if (failed) console.log(`(skeleton logs kept in ${logDir})`);
    else rmSync(logDir, { recursive: true, force: true });
  }
}
