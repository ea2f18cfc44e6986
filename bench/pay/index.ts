// Pay benchmark (bench/README.md "pay"): POST /v1/pay through the whole system (every service its
// own process, real PostgreSQL, Redis and Kafka, the partner simulator settling within
// milliseconds), in two parts on one system: an open loop at a fixed arrival rate (latency, CPU and
// rows written per pay against the goals, beside the same open loop's CPU through the pay
// skeleton at its two levels, the floors, measured first) and a closed loop at a fixed concurrency
// (throughput against a same-run pgbench baseline doing one payment's row writes per script).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT, startSystem } from '../../test-e2e/harness';
import { formatCpuTable } from '../shared/cpu';
import {
  BENCH_RATE_LIMIT,
  PAY_AMOUNT,
  POOL,
  payBody,
  probePay,
  WEBHOOK_PRODUCTION_TIMINGS,
} from '../shared/pay-system';
import { cpuProfileEnv, writeBenchResults } from '../shared/results';
import { measureClosedLoop } from './closed';
import { createPayBenchContext } from './context';
import { measurePayFloor } from './floor';
import { measureOpenLoop } from './open';
import { formatOpenLoop, type OpenLoopSummary, type PayFloor } from './open-report';
import { formatReport, type PaySummary } from './report';
import { SKELETON_LEVELS } from './skeleton/levels';

export type PayBenchMode = 'open' | 'closed' | 'both';

export interface PayBenchOptions {
  mode: PayBenchMode;
  /** Measured seconds of each part. */
  durationSeconds: number;
  warmupSeconds: number;
  /** Open loop: pays per second scheduled, and the most in flight at once. */
  ratePerSec: number;
  maxInFlight: number;
  /** Closed loop: callers. */
  concurrency: number;
  /** PARTNER_SIM_SETTLE_MS: the simulator's delay from acceptance to settlement (and callback). */
  settleMs: number;
  /** Where the gateway, payout and the simulator write V8 CPU profiles (unset: no profiling). */
  cpuProfileDir?: string;
  /** Open loop: measure the pay skeleton's two floors first (BENCH_PAY_FLOOR=0: not). */
  floor: boolean;
}

// Every pay's body, the skeleton's too.
const PAY_BODY = payBody();

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

export async function runPayBench(opts: PayBenchOptions): Promise<boolean> {
  const openLoop = {
    ratePerSec: opts.ratePerSec,
    seconds: opts.durationSeconds,
    warmupSeconds: opts.warmupSeconds,
    maxInFlight: opts.maxInFlight,
  };
  // The floors before the system exists: the shared Redis and Kafka then serve the skeleton alone.
  const floors: PayFloor[] = [];
  if (opts.mode !== 'closed' && opts.floor) {
    const infra = {
      databaseUrl: requiredEnv('DATABASE_URL'),
      redisUrl: requiredEnv('REDIS_URL'),
      kafkaBrokers: requiredEnv('KAFKA_BROKERS'),
      settleMs: opts.settleMs,
    };
    for (const level of SKELETON_LEVELS) floors.push(await measurePayFloor(infra, openLoop, level, PAY_BODY));
  }
  console.log('starting the system (every service its own process, LOG_LEVEL=warn, telemetry off)...');
  // BENCH_CPU_PROF_DIR: the gateway, payout and the simulator write V8 CPU profiles there on exit.
  const profile = cpuProfileEnv(opts.cpuProfileDir);
  const system = await startSystem({
    logLevel: 'warn',
    gatewayEnv: { ...POOL, ...profile },
    serviceEnv: {
      decoder: POOL,
      fx: POOL,
      payout: { ...POOL, ...profile },
      webhook: { ...POOL, ...WEBHOOK_PRODUCTION_TIMINGS },
    },
    partnerSimEnv: { PARTNER_SIM_SETTLE_MS: String(opts.settleMs), ...profile },
  });
  const db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
  try {
    const ctx = await createPayBenchContext(system, db, {
      tenantName: `bench-pay-${randomBytes(4).toString('hex')}`,
      rateLimitPerMinute: BENCH_RATE_LIMIT,
      body: PAY_BODY,
    });
    // One pay end to end first; its whole answer is shown when it did not complete.
    await probePay(ctx.gatewayUrl, ctx.apiKey, ctx.body);
    console.log(`partner settles after ${opts.settleMs} ms; mode ${opts.mode}`);

    let open: OpenLoopSummary | undefined;
    let closed: PaySummary | undefined;
    let closedCpu: unknown;
    if (opts.mode !== 'closed') {
      open = { ...(await measureOpenLoop(ctx, openLoop)), ...(floors.length > 0 ? { floors } : {}) };
      console.log(`\n${formatOpenLoop(open)}\n`);
    }
    if (opts.mode !== 'open') {
      const measured = await measureClosedLoop(ctx, {
        seconds: opts.durationSeconds,
        warmupSeconds: opts.warmupSeconds,
        concurrency: opts.concurrency,
      });
      closed = measured.summary;
      closedCpu = measured.cpu;
      console.log(`\nclosed loop, c=${opts.concurrency}:\n${formatReport(closed)}`);
      console.log("\nCPU during the closed loop's measured window (cores, average):");
      console.log(formatCpuTable(measured.cpu, closed.pays.perSec, 'pay'));
    }
    if (open) console.log(`\nopen loop at ${opts.ratePerSec}/s: ${open.pass.all ? 'PASS' : 'FAIL'}`);
    if (closed) console.log(`closed loop at c=${opts.concurrency}: ${closed.pass.all ? 'PASS' : 'FAIL'}`);
    const file = writeBenchResults(
      REPO_ROOT,
      'pay',
      { ...opts, amount: PAY_AMOUNT },
      { open, closed: closed && { ...closed, cpu: closedCpu } },
    );
    console.log(`\nresults written to ${path.relative(REPO_ROOT, file)}`);
    return (open?.pass.all ?? true) && (closed?.pass.all ?? true);
  } finally {
    await db.end();
    await system.stop();
  }
}
