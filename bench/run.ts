// `npm run bench -- <name>`: runs one benchmark and prints its table with a same-run baseline.
import { runDecodeBench } from './decode';
import { runGatewayBench } from './gateway';
import { runGrpcBench } from './grpc';
import { runPayBench } from './pay';
import { runResolveBench } from './resolve';

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
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
      durationSeconds: positiveInt('BENCH_PAY_SECONDS', 60),
      warmupSeconds: positiveInt('BENCH_WARMUP', 5),
      concurrency: positiveInt('BENCH_CONNECTIONS', 64),
      settleMs: positiveInt('BENCH_PAY_SETTLE_MS', 2),
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
