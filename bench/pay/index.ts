// Pay benchmark (bench/README.md "pay"): POST /v1/pay through the whole system (every service its
// own process, real PostgreSQL, Redis and Kafka, the partner simulator settling within
// milliseconds), in two parts on one system: an open loop at a fixed arrival rate (latency, CPU and
// rows written per pay against the goals, beside the same open loop's CPU through the pay
// skeleton at its two levels, the floors, measured first) and a closed loop at a fixed concurrency
// (throughput against a same-run pgbench baseline doing one payment's row writes per script).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import pg from 'pg';
import { REPO_ROOT, startSystem } from '../../test-e2e/harness';
import { formatCpuTable } from '../shared/cpu';
import { cpuProfileEnv, writeBenchResults } from '../shared/results';
import { measureClosedLoop } from './closed';
import { createPayBenchContext } from './context';
import { measurePayFloor } from './floor';
import { sendPay } from './load';
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

// The admin API's maximum: nothing is refused at these rates, but the limiter still runs.
const BENCH_RATE_LIMIT = 1_000_000;
// Every service with its own default pool (the e2e harness gives tests 4 connections each).
const POOL = { DB_POOL_MAX: '10' };
// The webhook service as production runs it: the harness's test timings (a claim poll every
// 100 ms, a 6 s Kafka session) would bill the database and Kafka for polls production does not make.
const WEBHOOK_PRODUCTION_TIMINGS = { WEBHOOK_POLL_MS: '1000', KAFKA_SESSION_TIMEOUT_MS: '30000' };
// An amount whose last two digits (00) select the default outcome: completed through the callback.
const AMOUNT = 10;
// Every pay's body, the skeleton's too.
const PAY_BODY = JSON.stringify({ qr_string: PIX_WITHOUT_AMOUNT, amount: AMOUNT, ...PAYER });

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
    const probeAgent = new http.Agent({ keepAlive: false });
    const probe = await sendPay(probeAgent, new URL('/v1/pay', ctx.gatewayUrl), ctx.apiKey, ctx.body);
    if (probe.status !== 200 || !probe.text.includes('"status":"completed"'))
      throw new Error(`a single pay did not complete: ${probe.status} ${probe.text}`);
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
      { ...opts, amount: AMOUNT },
      { open, closed: closed && { ...closed, cpu: closedCpu } },
    );
    console.log(`\nresults written to ${path.relative(REPO_ROOT, file)}`);
    return (open?.pass.all ?? true) && (closed?.pass.all ?? true);
  } finally {
    await db.end();
    await system.stop();
  }
}
