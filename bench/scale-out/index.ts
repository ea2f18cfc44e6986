// Scale-out benchmark (bench/README.md "scale-out"): what a pay costs
// in CPU when every component runs as two replicas instead of one, at the same open-loop rate.
// Two systems run side by side through the e2e harness (every process its own, real PostgreSQL,
// Redis and Kafka): a with one replica of each component, b with two of each (gateway, decoder,
// fx, payout, webhook). Both are measured idle, then bench/pay's open loop (latency from each pay's
// due time) runs against a, b, a, b, … at each rate, spread over every gateway of the system under
// load; each replica's CPU comes from /proc (shared/cpu.ts).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT, startSystem } from '../../test-e2e/harness';
import { percentile } from '../gateway/load';
import { createPayBenchContext, type PayBenchContext, sleep } from '../pay/context';
import { runPayOpenLoop } from '../pay/open-loop';
import { readCommits } from '../pay/row-writes';
import { startCallbackReceiver } from '../shared/callback-receiver';
import { cpuBetween, sampleCpu } from '../shared/cpu';
import {
  BENCH_RATE_LIMIT,
  PAY_AMOUNT,
  POOL,
  payBody,
  probePay,
  WEBHOOK_PRODUCTION_TIMINGS,
} from '../shared/pay-system';
import { writeBenchResults } from '../shared/results';
import {
  COMPONENTS,
  type CpuWindow,
  compareAtRate,
  formatComparison,
  formatIdle,
  type Idle,
  type IdleWindow,
  idleOf,
  type MeasuredRound,
  poolRounds,
  type RateComparison,
  replicaRowName,
  SCALE_OUT_GOAL_RATIO,
  type SystemKey,
} from './report';

export interface ScaleOutBenchOptions {
  /** BENCH_PAY_RATE: pays per second of each open loop; several (50,100) run every round at each. */
  rates: number[];
  durationSeconds: number;
  warmupSeconds: number;
  /** a/b pairs per rate. */
  rounds: number;
  /** Seconds of each idle window (both systems at once, before the rounds and after them). */
  idleSeconds: number;
  /** Replicas of each component in system b. */
  replicas: number;
  /** Each round also runs a at half the rate, for twice as long (the floor, report.ts). */
  floor: boolean;
  maxInFlight: number;
  /** PARTNER_SIM_SETTLE_MS. */
  settleMs: number;
}

// As bench/pay runs the system (shared/pay-system.ts): default pools, webhook at production timings,
// the admin API's maximum limit, amount 10.00 (completed by the callback).
// Children compile TypeScript at start; two systems on a busy 2-core machine take their time.
const READY_TIMEOUT_MS = 300_000;
// After the probes: webhook's group joins and the first deliveries are done before idle is measured.
const SETTLE_BEFORE_IDLE_MS = 10_000;

type RunningSystem = Awaited<ReturnType<typeof startSystem>>;

interface Side {
  key: SystemKey;
  system: RunningSystem;
  db: pg.Pool;
  ctx: PayBenchContext;
  /** Every replica as its own row, and the partner simulator (shown, not counted). */
  processes: Array<{ name: string; pid: number }>;
}

function processesOf(system: RunningSystem): Array<{ name: string; pid: number }> {
  const rows = COMPONENTS.flatMap((component) =>
    system.replicas(component).map((replica) => ({
      name: replicaRowName(component, replica.index),
      pid: replica.process.pid,
    })),
  );
  for (const proc of system.processes)
    if (proc.name.startsWith('partner-sim')) rows.push({ name: 'partner simulator', pid: proc.pid });
  return rows;
}

async function startSide(key: SystemKey, replicas: number, settleMs: number, body: string): Promise<Side> {
  const count = Object.fromEntries(COMPONENTS.map((c) => [c, replicas]));
  console.log(`starting system ${key}: ${replicas} replica${replicas === 1 ? '' : 's'} of each component...`);
  const started = performance.now();
  const system = await startSystem({
    logLevel: 'warn',
    readyTimeoutMs: READY_TIMEOUT_MS,
    replicas: count,
    gatewayEnv: POOL,
    serviceEnv: {
      decoder: POOL,
      fx: POOL,
      payout: POOL,
      webhook: { ...POOL, ...WEBHOOK_PRODUCTION_TIMINGS },
    },
    partnerSimEnv: { PARTNER_SIM_SETTLE_MS: String(settleMs) },
  });
  const db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
  try {
    const ctx = await createPayBenchContext(system, db, {
      tenantName: `bench-scale-out-${key}-${randomBytes(4).toString('hex')}`,
      rateLimitPerMinute: BENCH_RATE_LIMIT,
      body,
    });
    // One pay through each gateway must complete before anything is measured.
    for (const gatewayUrl of system.gatewayUrls) {
      await probePay(gatewayUrl, ctx.apiKey, body, `system ${key}: a pay through ${gatewayUrl}`);
    }
    console.log(
      `  system ${key} up in ${((performance.now() - started) / 1000).toFixed(0)} s, gateways ${system.gatewayUrls.join(', ')}`,
    );
    return { key, system, db, ctx, processes: processesOf(system) };
  } catch (err) {
    await db.end();
    await system.stop();
    throw err;
  }
}

/** CPU seconds per row between two samples (cpuBetween's rows, cores × window). */
function cpuWindow(start: ReturnType<typeof sampleCpu>, end: ReturnType<typeof sampleCpu>): CpuWindow {
  const seconds = (end.at - start.at) / 1000;
  const cpu: Record<string, number> = {};
  for (const row of cpuBetween(start, end)) cpu[row.name] = row.cores * seconds;
  return { seconds, cpu };
}

const sample = (side: Side) => sampleCpu(side.processes, side.ctx.cpuScope);

// The longest a system may take to finish what its pays started once the load stops.
const DRAIN_LIMIT_MS = 180_000;

/**
 * Waits until the system has finished what its pays started: every transaction of the tenant
 * terminal, every outbox event published, one callback delivery per terminal transaction and none
 * pending or in flight. Its CPU until then belongs to the pays; returns the seconds it took, or
 * undefined when DRAIN_LIMIT_MS passed first.
 */
async function drain(side: Side): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < DRAIN_LIMIT_MS) {
    const { rows } = await side.db.query<{
      open: string;
      terminal: string;
      unpublished: string;
      delivered: string;
      undelivered: string;
    }>(
      `SELECT
         (SELECT count(*) FROM payout.transactions WHERE tenant_id = $1 AND status IN ('pending', 'processing')) AS open,
         (SELECT count(*) FROM payout.transactions WHERE tenant_id = $1 AND status IN ('completed', 'failed')) AS terminal,
         (SELECT count(*) FROM payout.outbox_events WHERE published_at IS NULL) AS unpublished,
         (SELECT count(*) FROM webhook.deliveries WHERE tenant_id = $1 AND status NOT IN ('pending', 'delivering')) AS delivered,
         (SELECT count(*) FROM webhook.deliveries WHERE tenant_id = $1 AND status IN ('pending', 'delivering')) AS undelivered`,
      [side.ctx.tenantId],
    );
    const r = rows[0]!;
    if (
      Number(r.open) === 0 &&
      Number(r.unpublished) === 0 &&
      Number(r.undelivered) === 0 &&
      Number(r.delivered) >= Number(r.terminal)
    )
      return (performance.now() - started) / 1000;
    await sleep(500);
  }
  return undefined;
}

/** Both systems with no load at all for `seconds`, measured over the same window. */
async function measureIdle(sides: Side[], seconds: number, when: IdleWindow['when']): Promise<IdleWindow[]> {
  for (const side of sides) {
    const took = await drain(side);
    if (took === undefined) console.log(`  system ${side.key} still busy after ${DRAIN_LIMIT_MS / 1000} s`);
  }
  await sleep(SETTLE_BEFORE_IDLE_MS);
  console.log(`idle (${when}): ${seconds} s with no load on either system`);
  const commitsBefore = await Promise.all(sides.map((s) => readCommits(s.system.databaseUrl)));
  const starts = sides.map(sample);
  await sleep(seconds * 1000);
  const ends = sides.map(sample);
  const commitsAfter = await Promise.all(sides.map((s) => readCommits(s.system.databaseUrl)));
  return sides.map((side, i) => ({
    system: side.key,
    when,
    cpu: cpuWindow(starts[i]!, ends[i]!),
    commits: commitsAfter[i]! - commitsBefore[i]!,
  }));
}

/**
 * One round of `side` at `rate`; `half`: as a½, at half the rate for twice as long (as many pays),
 * filed under `rate` with the key a½.
 */
async function measureRound(
  side: Side,
  opts: ScaleOutBenchOptions,
  rate: number,
  round: number,
  half = false,
): Promise<{ round: MeasuredRound; latenciesMs: number[] }> {
  const load = {
    gatewayUrl: side.ctx.gatewayUrl,
    gatewayUrls: side.system.gatewayUrls,
    apiKey: side.ctx.apiKey,
    body: side.ctx.body,
    ratePerSec: half ? rate / 2 : rate,
    maxInFlight: opts.maxInFlight,
  };
  await runPayOpenLoop({ ...load, durationMs: opts.warmupSeconds * 1000 });
  const commitsBefore = await readCommits(side.system.databaseUrl);
  const start = sample(side);
  const run = await runPayOpenLoop({ ...load, durationMs: opts.durationSeconds * (half ? 2 : 1) * 1000 });
  // The window ends once the system has finished the pays' work (relay, webhook deliveries).
  const drainSeconds = await drain(side);
  const end = sample(side);
  const commits = (await readCommits(side.system.databaseUrl)) - commitsBefore;
  const latencies = Float64Array.from(run.latenciesMs);
  const measured: MeasuredRound = {
    system: half ? 'a½' : side.key,
    rate,
    round,
    sent: run.sent,
    perSec: run.sent / (run.durationMs / 1000),
    byHttpStatus: run.byHttpStatus,
    byTransactionStatus: run.byTransactionStatus,
    errors: run.errors,
    unexpected: run.unexpected,
    capHits: run.capHits,
    maxSendLagMs: run.maxSendLagMs,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: percentile(latencies, 1),
    cpu: cpuWindow(start, end),
    drainSeconds: drainSeconds ?? Number.NaN,
    commits,
  };
  return { round: measured, latenciesMs: run.latenciesMs };
}

export async function runScaleOutBench(opts: ScaleOutBenchOptions): Promise<boolean> {
  const receiver = await startCallbackReceiver();
  // bench/pay's body with a callback_url: every pay also makes a webhook delivery, so the webhook
  // replicas do their share of the work, not only their polls.
  const body = payBody(receiver.url);
  const sides: Side[] = [];
  try {
    sides.push(await startSide('a', 1, opts.settleMs, body));
    sides.push(await startSide('b', opts.replicas, opts.settleMs, body));
    console.log(
      `rates ${opts.rates.join(', ')} pays/s; per rate ${opts.rounds} × (a, b), each ${opts.warmupSeconds} s warm-up + ` +
        `${opts.durationSeconds} s measured; partner settles after ${opts.settleMs} ms`,
    );
    const idleWindows = await measureIdle(sides, opts.idleSeconds, 'before');

    const rounds: MeasuredRound[] = [];
    const latencies = new Map<string, number[]>();
    for (const rate of opts.rates) {
      for (let round = 1; round <= opts.rounds; round++) {
        const plan = [
          ...sides.map((side) => ({ side, half: false })),
          ...(opts.floor ? [{ side: sides[0]!, half: true }] : []),
        ];
        for (const { side, half } of plan) {
          console.log(`rate ${rate}/s, round ${round}, system ${half ? `a½ (${rate / 2}/s)` : side.key}...`);
          const measured = await measureRound(side, opts, rate, round, half);
          rounds.push(measured.round);
          const key = `${rate}:${measured.round.system}`;
          latencies.set(key, [...(latencies.get(key) ?? []), ...measured.latenciesMs]);
        }
      }
    }
    idleWindows.push(...(await measureIdle(sides, opts.idleSeconds, 'after')));

    const idle: { a?: Idle; b?: Idle } = { a: idleOf('a', idleWindows), b: idleOf('b', idleWindows) };
    const comparisons: RateComparison[] = opts.rates.map((rate) => {
      const pooled = (key: SystemKey) =>
        poolRounds(
          rounds.filter((r) => r.rate === rate && r.system === key),
          Float64Array.from(latencies.get(`${rate}:${key}`) ?? []),
        );
      const half = opts.floor ? pooled('a½') : undefined;
      return compareAtRate(rate, rounds, { a: pooled('a'), b: pooled('b'), half }, idle);
    });

    console.log(`\n${formatIdle(idle)}`);
    for (const comparison of comparisons) console.log(`\n${formatComparison(comparison, rounds, idle)}`);
    console.log(`\ncallback deliveries received: ${receiver.received()}`);
    for (const c of comparisons)
      console.log(
        `scale-out at ${c.rate} pays/s: CPU per pay b ÷ a = ${c.ratio.toFixed(3)} (goal ≤ ${SCALE_OUT_GOAL_RATIO}): ${c.pass ? 'PASS' : 'FAIL'}`,
      );
    const file = writeBenchResults(
      REPO_ROOT,
      'scale-out',
      { ...opts, amount: PAY_AMOUNT, callbackUrl: true },
      { idleWindows, idle, rounds, comparisons },
    );
    console.log(`\nresults written to ${path.relative(REPO_ROOT, file)}`);
    return comparisons.every((c) => c.pass);
  } finally {
    for (const side of sides.reverse()) {
      await side.db.end();
      await side.system.stop();
    }
    await receiver.close();
  }
}
