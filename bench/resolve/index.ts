// Resolve benchmark (bench/README.md "resolve"): POST /v1/resolve through the whole system (gateway
// → decoder → [fx] → payout → PostgreSQL), against the same run's authenticated GET /v1/schemes,
// measured alternately.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { MERCHANT_QRS } from '@qr-payout/test-kit/qrs';
import { REPO_ROOT, startSystem } from '../../test-e2e/harness';
import { type LoadOptions, type LoadResult, runLoad } from '../gateway/load';
import { type CpuSample, cpuBetween, formatCpuTable, sampleCpu } from '../shared/cpu';
import {
  figuresOf,
  formatTable,
  type ResolveSummary,
  type ResolveTarget,
  summarize,
  TARGETS,
  writeResults,
} from './report';
import { startSkeleton } from './skeleton';

export interface ResolveBenchOptions {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  rounds: number;
}

// The admin API's maximum: nothing is refused at these rates, but the limiter still runs.
const BENCH_RATE_LIMIT = 1_000_000;

// A static Pix QR with an amount: the decode is pure (no dynamic payload fetch).
const PIX = MERCHANT_QRS.find((qr) => qr.country === 'BR' && qr.amount !== undefined);

/** An empty list for every target. */
function perTarget<T>(): Record<ResolveTarget, T[]> {
  return Object.fromEntries(TARGETS.map((target) => [target, []])) as unknown as Record<ResolveTarget, T[]>;
}

async function expectOk(load: LoadOptions): Promise<void> {
  const res = await fetch(load.url, {
    method: load.method ?? 'GET',
    headers: load.headers,
    ...(load.body !== undefined ? { body: load.body } : {}),
  });
  const text = await res.text();
  if (res.status !== 200)
    throw new Error(`${load.method ?? 'GET'} ${load.url} answered ${res.status}: ${text}`);
}

export async function runResolveBench(opts: ResolveBenchOptions): Promise<boolean> {
  if (!PIX) throw new Error('no static Pix QR with an amount in @qr-payout/test-kit/qrs');
  console.log('starting the system (every service its own process, LOG_LEVEL=warn, telemetry off)...');
  // BENCH_CPU_PROF_DIR: the gateway, decoder and payout write V8 CPU profiles there on exit.
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const profile: NodeJS.ProcessEnv = profileDir
    ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(profileDir)}` }
    : {};
  const system = await startSystem({
    logLevel: 'warn',
    gatewayEnv: profile,
    serviceEnv: { decoder: profile, payout: profile },
  });
  let stopSkeleton = async () => {};
  try {
    const tenant = await system.createTenant(
      `bench-resolve-${randomBytes(4).toString('hex')}`,
      BENCH_RATE_LIMIT,
    );
    const headers = { 'x-api-key': tenant.apiKey };
    const post = (body: object): Omit<LoadOptions, 'connections' | 'durationSeconds'> => ({
      url: `${system.gatewayUrl}/v1/resolve`,
      method: 'POST',
      body: JSON.stringify(body),
      headers: { ...headers, 'content-type': 'application/json' },
    });
    const skeleton = await startSkeleton({ databaseUrl: system.databaseUrl, logDir: system.logDir });
    stopSkeleton = skeleton.stop;
    const watched = [...system.processes, ...skeleton.processes];
    const loads: Record<ResolveTarget, Omit<LoadOptions, 'connections' | 'durationSeconds'>> = {
      skeleton: { ...post({ qr_string: PIX.qrString }), url: `${skeleton.url}/v1/resolve` },
      schemes: { url: `${system.gatewayUrl}/v1/schemes`, headers },
      resolve: post({ qr_string: PIX.qrString }),
      'resolve-fx': post({ qr_string: PIX.qrString, wallet_currency: 'USD' }),
    };
    for (const target of TARGETS) await expectOk({ ...loads[target], connections: 1, durationSeconds: 0 });

    console.log(
      `c=${opts.connections}, ${opts.warmupSeconds} s warm-up + ${opts.durationSeconds} s per run, ` +
        `${opts.rounds} rounds alternating ${TARGETS.join(' → ')}`,
    );
    const runs = perTarget<LoadResult>();
    const rows: ResolveSummary['rows'] = [];
    // CPU of each process during each measured run, to say where a request's cost goes.
    const cpuWindows = perTarget<[CpuSample, CpuSample]>();
    for (let round = 1; round <= opts.rounds; round++) {
      for (const target of TARGETS) {
        const load = { ...loads[target], connections: opts.connections };
        await runLoad({ ...load, durationSeconds: opts.warmupSeconds });
        const cpuStart = sampleCpu(watched);
        const run = await runLoad({ ...load, durationSeconds: opts.durationSeconds });
        cpuWindows[target].push([cpuStart, sampleCpu(watched)]);
        runs[target].push(run);
        const figures = figuresOf([run]);
        rows.push({ target, round, ...figures });
        console.log(
          `  round ${round} ${target}: ${figures.reqPerSec.toFixed(0)} req/s, p99 ${figures.p99Ms.toFixed(2)} ms`,
        );
      }
    }
    const summary = summarize(rows, runs, opts.connections);
    console.log(`\n${formatTable(summary)}`);
    for (const target of TARGETS) {
      // The last round's window: the earlier ones are alike, and a sum over rounds would need weighting.
      const window = cpuWindows[target].at(-1);
      if (!window) continue;
      console.log(`\nCPU during the last ${target} run (cores, average):`);
      console.log(
        formatCpuTable(
          cpuBetween(...window),
          summary.rows.filter((r) => r.target === target).at(-1)!.reqPerSec,
          'request',
        ),
      );
    }
    const file = writeResults(REPO_ROOT, { ...opts, qr: PIX.label }, summary);
    console.log(`\nresults written to ${path.relative(REPO_ROOT, file)}`);
    return summary.pass.all;
  } finally {
    await stopSkeleton();
    await system.stop();
  }
}
