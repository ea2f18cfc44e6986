// gRPC bench (bench/grpc/README.md): the platform's client → server unary calls against bare
// @grpc/grpc-js on the same messages, in the same process and run, alternating per round.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestCa } from '@qr-payout/test-kit/test-ca';
import { percentile } from '../gateway/load';
import { platformTarget, rawGrpcJsTarget, type Target } from './targets';

export interface GrpcBenchOptions {
  /** Measured milliseconds per target per round. */
  durationMs: number;
  warmupMs: number;
  rounds: number;
  /** Calls kept in flight at once. */
  concurrency: number;
}

/** The platform must keep at least this share of bare grpc-js's calls per second. */
export const GRPC_RATIO_GOAL = 0.7;

interface Run {
  calls: number;
  seconds: number;
  latenciesMs: Float64Array;
}

interface Figures {
  callsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

// `concurrency` loops, each starting its next call when the previous one answers.
async function measure(target: Target, ms: number, concurrency: number): Promise<Run> {
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await target.call();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return {
    calls: latencies.length,
    seconds: (performance.now() - started) / 1000,
    latenciesMs: Float64Array.from(latencies),
  };
}

function figuresOf(runs: readonly Run[]): Figures {
  const all = new Float64Array(runs.reduce((n, run) => n + run.latenciesMs.length, 0));
  let offset = 0;
  for (const run of runs) {
    all.set(run.latenciesMs, offset);
    offset += run.latenciesMs.length;
  }
  const seconds = runs.reduce((s, run) => s + run.seconds, 0);
  return {
    callsPerSec: runs.reduce((n, run) => n + run.calls, 0) / seconds,
    p50Ms: percentile(all, 0.5),
    p99Ms: percentile(all, 0.99),
  };
}

function formatRow(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
    .join('  ');
}

export async function runGrpcBench(opts: GrpcBenchOptions): Promise<boolean> {
  const raw = await rawGrpcJsTarget();
  const platform = await platformTarget();
  // The same with mutual TLS on both sides: what mTLS between the services costs per call.
  const ca = createTestCa('bench CA');
  const mtls = await platformTarget(ca.issue('bench-decoder', { ip: ['127.0.0.1'] }));
  const targets = [raw, platform, mtls];
  try {
    for (const target of targets) await measure(target, opts.warmupMs, opts.concurrency);
    const runs = new Map<Target, Run[]>(targets.map((t) => [t, []]));
    for (let round = 0; round < opts.rounds; round++)
      for (const target of targets)
        runs.get(target)?.push(await measure(target, opts.durationMs, opts.concurrency));

    const totals = new Map(targets.map((t) => [t, figuresOf(runs.get(t) ?? [])]));
    const baseline = totals.get(raw) as Figures;
    const ours = totals.get(platform) as Figures;
    const withMtls = totals.get(mtls) as Figures;
    const ratio = ours.callsPerSec / baseline.callsPerSec;
    const passed = ratio >= GRPC_RATIO_GOAL;

    const widths = [14, 10, 9, 9, 7];
    console.log(
      `grpc: unary DecoderService/Decode, client and server in one process, concurrency ${opts.concurrency}, ` +
        `${opts.rounds} rounds of ${opts.durationMs} ms per target`,
    );
    console.log(formatRow(['target', 'calls/s', 'p50 ms', 'p99 ms', 'ratio'], widths));
    for (const target of targets) {
      const figures = totals.get(target) as Figures;
      console.log(
        formatRow(
          [
            target.name,
            Math.round(figures.callsPerSec).toLocaleString('en-US'),
            figures.p50Ms.toFixed(2),
            figures.p99Ms.toFixed(2),
            (figures.callsPerSec / baseline.callsPerSec).toFixed(2),
          ],
          widths,
        ),
      );
    }
    console.log(
      `ratio platform/raw grpc-js: ${ratio.toFixed(2)} (goal >= ${GRPC_RATIO_GOAL}): ${passed ? 'PASS' : 'FAIL'}`,
    );
    console.log(
      `ratio platform mTLS/platform: ${(withMtls.callsPerSec / ours.callsPerSec).toFixed(2)} (what mTLS costs; no goal)`,
    );
    const file = writeResults(opts, { raw: baseline, platform: ours, platformMtls: withMtls, ratio, passed });
    console.log(`results: ${path.relative(process.cwd(), file)}`);
    return passed;
  } finally {
    for (const target of targets) await target.close();
    rmSync(ca.dir, { recursive: true, force: true });
  }
}

/** Results as JSON under .data/bench/ (ignored by git), so runs can be compared later. */
function writeResults(settings: GrpcBenchOptions, summary: Record<string, unknown>): string {
  const dir = path.resolve(__dirname, '../../.data/bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `grpc-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '' };
  writeFileSync(file, `${JSON.stringify({ bench: 'grpc', machine, settings, ...summary }, null, 2)}\n`);
  return file;
}
