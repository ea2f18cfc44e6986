// Scale benchmark (bench/README.md "scale"): does a pay cost the same on a
// database holding millions of transactions as on an empty one, and do the tables the retention
// jobs prune stay flat under steady load? Two parts, each on a system of its own (every service its
// own process, real PostgreSQL, Redis and Kafka): `compare` measures bench/pay's open loop on the
// empty database (the same-run baseline), seeds N transactions by set-based SQL, and measures again;
// `soak` pays at a fixed rate for many minutes with short retention settings and samples table sizes.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT, startSystem } from '../../test-e2e/harness';
import { createPayBenchContext, type PayBenchContext } from '../pay/context';
import { measureOpenLoop } from '../pay/open';
import type { OpenLoopSummary } from '../pay/open-report';
import { startCallbackReceiver } from '../shared/callback-receiver';
import { BENCH_RATE_LIMIT, POOL, payBody, probePay, WEBHOOK_PRODUCTION_TIMINGS } from '../shared/pay-system';
import { writeBenchResults } from '../shared/results';
import { seedScaleRows } from './seed';
import { formatSoak, runSoak, type SoakSummary } from './soak';

export type ScaleBenchMode = 'compare' | 'soak' | 'both';

export interface ScaleBenchOptions {
  mode: ScaleBenchMode;
  /** BENCH_SCALE_ROWS: transactions seeded (each with its instruction, key, event, delivery, attempt). */
  rows: number;
  /** The open loop of each measurement (bench/pay's). */
  ratePerSec: number;
  durationSeconds: number;
  warmupSeconds: number;
  soak: {
    minutes: number;
    ratePerSec: number;
    sampleSeconds: number;
    retentionMs: number;
    intervalMs: number;
  };
}

/** Seeded within 20% of empty, for CPU per pay and p99 alike (README "scale"). */
export const SCALE_GOAL_RATIO = 1.2;

type Started = { system: Awaited<ReturnType<typeof startSystem>>; ctx: PayBenchContext; db: pg.Pool };

/** A system, a tenant at the admin API's maximum limit, and one pay that completed. */
async function startPaySystem(body: string, env: Record<string, string>): Promise<Started> {
  const system = await startSystem({
    logLevel: 'warn',
    gatewayEnv: POOL,
    serviceEnv: {
      decoder: POOL,
      fx: { ...POOL, ...env },
      payout: { ...POOL, ...env },
      webhook: { ...POOL, ...WEBHOOK_PRODUCTION_TIMINGS, ...env },
    },
  });
  const db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
  try {
    const ctx = await createPayBenchContext(system, db, {
      tenantName: `bench-scale-${randomBytes(4).toString('hex')}`,
      rateLimitPerMinute: BENCH_RATE_LIMIT,
      body,
    });
    await probePay(ctx.gatewayUrl, ctx.apiKey, body);
    return { system, ctx, db };
  } catch (err) {
    await db.end();
    await system.stop();
    throw err;
  }
}

export interface ScaleComparison {
  empty: OpenLoopSummary;
  seeded: OpenLoopSummary;
  seed: { rows: number; seconds: number; transactionsPerSec: number };
  cpuRatio: number;
  p99Ratio: number;
  pass: boolean;
}

const clean = (s: OpenLoopSummary) => s.pays.errors === 0 && s.pays.unexpected === 0 && s.pays.capHits === 0;

export function formatComparison(c: ScaleComparison): string {
  const row = (name: string, empty: number, seeded: number, ratio: number) =>
    `${name.padEnd(24)} ${empty.toFixed(2).padStart(10)} ${seeded.toFixed(2).padStart(12)} ${ratio.toFixed(2).padStart(7)}  ${ratio <= SCALE_GOAL_RATIO ? 'PASS' : 'FAIL'}`;
  return [
    `seeded ${c.seed.rows.toLocaleString('en')} transactions in ${c.seed.seconds.toFixed(1)} s (${Math.round(c.seed.transactionsPerSec).toLocaleString('en')}/s, 6 rows each)`,
    `${''.padEnd(24)} ${'empty'.padStart(10)} ${'seeded'.padStart(12)} ${'ratio'.padStart(7)}  goal ≤ ${SCALE_GOAL_RATIO}`,
    row('CPU ms per pay (counted)', c.empty.cpu.countedMsPerPay, c.seeded.cpu.countedMsPerPay, c.cpuRatio),
    row('p99 ms (open loop)', c.empty.pays.p99Ms, c.seeded.pays.p99Ms, c.p99Ratio),
    ...c.empty.cpu.rows
      .filter((r) => r.counted)
      .map((r) => {
        const seeded = c.seeded.cpu.rows.find((s) => s.name === r.name)?.msPerPay ?? 0;
        return `  ${r.name.padEnd(22)} ${r.msPerPay.toFixed(2).padStart(10)} ${seeded.toFixed(2).padStart(12)}`;
      }),
    `errors, unexpected answers, cap hits: empty ${c.empty.pays.errors}/${c.empty.pays.unexpected}/${c.empty.pays.capHits}, seeded ${c.seeded.pays.errors}/${c.seeded.pays.unexpected}/${c.seeded.pays.capHits}`,
  ].join('\n');
}

/** Dirty and under-writeback page cache, in kB (Linux; 0 where /proc/meminfo is missing). */
function dirtyPageCacheKb(): number {
  try {
    const meminfo = readFileSync('/proc/meminfo', 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(meminfo)?.[1] ?? 0);
    return kb('Dirty') + kb('Writeback');
  } catch {
    return 0;
  }
}

/**
 * After writing tens of GB, PostgreSQL's checkpointer and the kernel's writeback go on flushing for
 * minutes, on the same two cores the seeded measurement counts: a checkpoint, then a wait (up to
 * 5 minutes) until less than 64 MB of page cache is still dirty, so the seeded run measures pays,
 * not the seed's aftermath.
 */
async function settleAfterSeed(pool: pg.Pool): Promise<void> {
  const started = performance.now();
  await pool.query('CHECKPOINT');
  while (dirtyPageCacheKb() > 64 * 1024 && performance.now() - started < 300_000) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  console.log(
    `settled in ${((performance.now() - started) / 1000).toFixed(0)} s (checkpoint; ${Math.round(dirtyPageCacheKb() / 1024)} MB of page cache left dirty)`,
  );
}

async function compare(opts: ScaleBenchOptions, body: string): Promise<ScaleComparison> {
  const { system, ctx, db } = await startPaySystem(body, {});
  const seedPool = new pg.Pool({ connectionString: system.databaseUrl, max: 1 });
  try {
    const openLoop = {
      ratePerSec: opts.ratePerSec,
      seconds: opts.durationSeconds,
      warmupSeconds: opts.warmupSeconds,
      maxInFlight: 1_000,
    };
    console.log('\nempty database:');
    const empty = await measureOpenLoop(ctx, openLoop);
    console.log(`\nseeding ${opts.rows.toLocaleString('en')} transactions...`);
    let lastPrint = 0;
    const seed = await seedScaleRows(seedPool, opts.rows, (done) => {
      if (done === opts.rows || performance.now() - lastPrint > 10_000) {
        lastPrint = performance.now();
        console.log(`  ${done.toLocaleString('en')} seeded`);
      }
    });
    await settleAfterSeed(seedPool);
    console.log(`\nseeded database (${opts.rows.toLocaleString('en')} transactions):`);
    const seeded = await measureOpenLoop(ctx, openLoop);
    const cpuRatio = seeded.cpu.countedMsPerPay / empty.cpu.countedMsPerPay;
    const p99Ratio = seeded.pays.p99Ms / empty.pays.p99Ms;
    return {
      empty,
      seeded,
      seed,
      cpuRatio,
      p99Ratio,
      pass: clean(empty) && clean(seeded) && cpuRatio <= SCALE_GOAL_RATIO && p99Ratio <= SCALE_GOAL_RATIO,
    };
  } finally {
    await seedPool.end();
    await db.end();
    await system.stop();
  }
}

async function soak(opts: ScaleBenchOptions, body: string): Promise<SoakSummary> {
  const retention = String(opts.soak.retentionMs);
  const { system, ctx, db } = await startPaySystem(body, {
    OUTBOX_RETENTION_MS: retention,
    QUOTE_RETENTION_MS: retention,
    WEBHOOK_DELIVERY_RETENTION_MS: retention,
    RETENTION_INTERVAL_MS: String(opts.soak.intervalMs),
  });
  try {
    console.log(
      `\nsoak: ${opts.soak.ratePerSec} pays/s for ${opts.soak.minutes} min, retention ${retention} ms, prune every ${opts.soak.intervalMs} ms, a sample every ${opts.soak.sampleSeconds} s`,
    );
    return await runSoak(db, {
      gatewayUrl: ctx.gatewayUrl,
      apiKey: ctx.apiKey,
      body,
      ...opts.soak,
    });
  } finally {
    await db.end();
    await system.stop();
  }
}

export async function runScaleBench(opts: ScaleBenchOptions): Promise<boolean> {
  const receiver = await startCallbackReceiver();
  // bench/pay's body (amount 10.00: completed through the partner callback) with a callback_url, so
  // every pay also makes a webhook delivery and its attempt.
  const body = payBody(receiver.url);
  try {
    let comparison: ScaleComparison | undefined;
    let soaked: SoakSummary | undefined;
    if (opts.mode !== 'soak') {
      comparison = await compare(opts, body);
      console.log(`\n${formatComparison(comparison)}`);
    }
    if (opts.mode !== 'compare') {
      soaked = await soak(opts, body);
      console.log(`\n${formatSoak(soaked)}`);
    }
    console.log(`\ncallback deliveries received: ${receiver.received()}`);
    if (comparison)
      console.log(`scale (${opts.rows.toLocaleString('en')} rows): ${comparison.pass ? 'PASS' : 'FAIL'}`);
    if (soaked) console.log(`soak (${opts.soak.minutes} min): ${soaked.pass ? 'PASS' : 'FAIL'}`);
    const file = writeBenchResults(REPO_ROOT, 'scale', { ...opts }, { comparison, soak: soaked });
    console.log(`\nresults written to ${path.relative(REPO_ROOT, file)}`);
    return (comparison?.pass ?? true) && (soaked?.pass ?? true);
  } finally {
    await receiver.close();
  }
}
