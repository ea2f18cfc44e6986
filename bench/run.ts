// `npm run bench -- <name>`: runs one benchmark and prints its table with a same-run baseline.
import { runDecodeBench } from './decode';
import { runGatewayBench } from './gateway';
import { runGrpcBench } from './grpc';
import { type PayBenchMode, runPayBench } from './pay';
import { runResolveBench } from './resolve';
import { runScaleBench, type ScaleBenchMode } from './scale';
import { runScaleOutBench } from './scale-out';
import { runWebhooksBench } from './webhooks';

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

function positiveInts(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isInteger(value) || value <= 0))
    throw new Error(`${name} must be positive integers separated by commas, got ${raw}`);
  return values;
}

/** A yes/no setting: 1 or 0 (true or false), `fallback` when unset. */
function flag(name: string, fallback: boolean): boolean {
  const raw = (process.env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new Error(`${name} is 1 or 0, got ${process.env[name]}`);
}

function parts(raw: string | undefined): Array<'a' | 'b'> {
  const chosen = (raw || 'a,b').split(',').map((p) => p.trim().toLowerCase());
  for (const part of chosen)
    if (part !== 'a' && part !== 'b') throw new Error(`BENCH_WEBHOOKS_PARTS holds a and/or b, got ${raw}`);
  return chosen as Array<'a' | 'b'>;
}

function scaleMode(raw: string | undefined): ScaleBenchMode {
  const mode = (raw || 'both').trim().toLowerCase();
  if (mode !== 'compare' && mode !== 'soak' && mode !== 'both')
    throw new Error(`BENCH_SCALE_MODE is compare, soak or both, got ${raw}`);
  return mode;
}

function payMode(raw: string | undefined): PayBenchMode {
  const mode = (raw || 'both').trim().toLowerCase();
  if (mode !== 'open' && mode !== 'closed' && mode !== 'both')
    throw new Error(`BENCH_PAY_MODE is open, closed or both, got ${raw}`);
  return mode;
}

const benches: Record<string, () => Promise<boolean>> = {
  decode: () =>
    runDecodeBench({
      durationMs: positiveInt('BENCH_DURATION', 2) * 1000,
      warmupMs: positiveInt('BENCH_WARMUP', 1) * 1000,
      rounds: positiveInt('BENCH_ROUNDS', 5),
    }),
  resolve: () =>
    runResolveBench({
      durationSeconds: positiveInt('BENCH_DURATION', 15),
      warmupSeconds: positiveInt('BENCH_WARMUP', 3),
      connections: positiveInt('BENCH_CONNECTIONS', 32),
      rounds: positiveInt('BENCH_ROUNDS', 2),
    }),
  grpc: () =>
    runGrpcBench({
      durationMs: positiveInt('BENCH_DURATION', 5) * 1000,
      warmupMs: positiveInt('BENCH_WARMUP', 2) * 1000,
      rounds: positiveInt('BENCH_ROUNDS', 3),
      concurrency: positiveInt('BENCH_CONNECTIONS', 32),
    }),
  pay: () =>
    runPayBench({
      mode: payMode(process.env.BENCH_PAY_MODE),
      durationSeconds: positiveInt('BENCH_DURATION', 60),
      warmupSeconds: positiveInt('BENCH_WARMUP', 5),
      ratePerSec: positiveInt('BENCH_PAY_RATE', 100),
      maxInFlight: positiveInt('BENCH_PAY_MAX_IN_FLIGHT', 1000),
      concurrency: positiveInt('BENCH_CONNECTIONS', 64),
      settleMs: positiveInt('BENCH_PAY_SETTLE_MS', 2),
      cpuProfileDir: process.env.BENCH_CPU_PROF_DIR || undefined,
      floor: process.env.BENCH_PAY_FLOOR !== '0',
    }),
  scale: () =>
    runScaleBench({
      mode: scaleMode(process.env.BENCH_SCALE_MODE),
      rows: positiveInt('BENCH_SCALE_ROWS', 10_000_000),
      ratePerSec: positiveInt('BENCH_PAY_RATE', 100),
      durationSeconds: positiveInt('BENCH_DURATION', 60),
      warmupSeconds: positiveInt('BENCH_WARMUP', 5),
      soak: {
        minutes: positiveInt('BENCH_SCALE_SOAK_MINUTES', 30),
        ratePerSec: positiveInt('BENCH_SCALE_SOAK_RATE', 50),
        sampleSeconds: positiveInt('BENCH_SCALE_SOAK_SAMPLE_SECONDS', 60),
        retentionMs: positiveInt('BENCH_SCALE_SOAK_RETENTION_MS', 120_000),
        intervalMs: positiveInt('BENCH_SCALE_SOAK_PRUNE_MS', 10_000),
      },
    }),
  'scale-out': () =>
    runScaleOutBench({
      rates: positiveInts('BENCH_PAY_RATE', [50]),
      durationSeconds: positiveInt('BENCH_DURATION', 30),
      warmupSeconds: positiveInt('BENCH_WARMUP', 5),
      rounds: positiveInt('BENCH_ROUNDS', 2),
      idleSeconds: positiveInt('BENCH_SCALE_OUT_IDLE', 20),
      replicas: positiveInt('BENCH_SCALE_OUT_REPLICAS', 2),
      floor: flag('BENCH_SCALE_OUT_FLOOR', true),
      maxInFlight: positiveInt('BENCH_PAY_MAX_IN_FLIGHT', 1000),
      settleMs: positiveInt('BENCH_PAY_SETTLE_MS', 2),
    }),
  webhooks: () =>
    runWebhooksBench({
      parts: parts(process.env.BENCH_WEBHOOKS_PARTS),
      delivery: {
        events: positiveInt('BENCH_WEBHOOKS_EVENTS', 10_000),
        warmupEvents: positiveInt('BENCH_WEBHOOKS_WARMUP_EVENTS', 1_000),
        concurrency: positiveInt('WEBHOOK_WORKER_CONCURRENCY', 32),
        batchSize: positiveInt('BENCH_WEBHOOKS_BATCH', 500),
        floorLoops: positiveInt('BENCH_WEBHOOKS_FLOOR_LOOPS', 6),
      },
      latency: {
        ratePerSec: positiveInt('BENCH_WEBHOOKS_RATE', 100),
        seconds: positiveInt('BENCH_WEBHOOKS_SECONDS', 20),
        warmupSeconds: positiveInt('BENCH_WARMUP', 3),
        settleMs: positiveInt('BENCH_PAY_SETTLE_MS', 2),
      },
      verifyEvery: positiveInt('BENCH_WEBHOOKS_VERIFY_EVERY', 10),
      cpuProfileDir: process.env.BENCH_CPU_PROF_DIR || undefined,
    }),
  gateway: () =>
    runGatewayBench({
      durationSeconds: positiveInt('BENCH_DURATION', 15),
      warmupSeconds: positiveInt('BENCH_WARMUP', 3),
      connections: positiveInt('BENCH_CONNECTIONS', 32),
      rounds: positiveInt('BENCH_ROUNDS', 2),
    }),
};

async function main(): Promise<void> {
  const name = process.argv[2];
  const bench = name ? benches[name] : undefined;
  if (!bench) {
    console.error(`usage: npm run bench -- <${Object.keys(benches).join('|')}>`);
    process.exitCode = 2;
    return;
  }
  const passed = await bench();
  // A missed goal is a failing exit, so CI can hold the line.
  process.exitCode = passed ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
