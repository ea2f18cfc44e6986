// Gateway benchmark (bench/README.md): authenticated, rate-limited GET /v1/schemes against a bare
// node:http server returning the same bytes, measured alternately in the same run.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type OtlpReceiver,
  REPO_ROOT,
  type SystemOptions,
  startOtlpReceiver,
  startSystem,
} from '../../test-e2e/harness';
import { type LoadResult, runLoad } from './load';
import { formatTable, type Row, rowOf, summarize, type Target, writeResults } from './report';

export interface GatewayBenchOptions {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  rounds: number;
}

/**
 * The highest limit the admin API takes (1,000,000 per minute): the gateway's runs in any 60 s
 * (at most ~36 s of gateway load between bare runs) stay below it up to ~27k req/s, and a refusal
 * would show as non-2xx and fail the run. Every request is still checked and recorded in Redis.
 */
const BENCH_RATE_LIMIT = 1_000_000;

/**
 * Tracing in the bench. Off by default: every process runs with OTEL_SDK_DISABLED=true, so the
 * figures are the request path's own. BENCH_TRACE_RATIO=r (0 < r <= 1) runs the system as
 * production would: the SDK on everywhere, the gateway sampling r of its traces
 * (parentbased_traceidratio), spans exported over OTLP/HTTP to a receiver in this process.
 */
function traceRatio(): number | undefined {
  const raw = process.env.BENCH_TRACE_RATIO;
  if (raw === undefined || raw === '') return undefined;
  const ratio = Number(raw);
  if (!(ratio > 0 && ratio <= 1)) throw new Error(`BENCH_TRACE_RATIO must be in (0, 1], got ${raw}`);
  return ratio;
}

function systemOptions(ratio: number | undefined, receiver: OtlpReceiver | undefined): SystemOptions {
  const gatewayEnv: NodeJS.ProcessEnv = {};
  // The gateway writes a V8 CPU profile there when it stops (bench/README.md: profiling).
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  if (profileDir) gatewayEnv.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${path.resolve(profileDir)}`;
  if (ratio !== undefined) {
    gatewayEnv.OTEL_TRACES_SAMPLER = 'parentbased_traceidratio';
    gatewayEnv.OTEL_TRACES_SAMPLER_ARG = String(ratio);
    // The SDK's default batching (5 s), not the e2e suite's 100 ms.
    gatewayEnv.OTEL_BSP_SCHEDULE_DELAY = '5000';
  }
  return { logLevel: 'warn', gatewayEnv, ...(receiver ? { otlpTracesUrl: receiver.tracesUrl } : {}) };
}

function telemetryLine(ratio: number | undefined): string {
  return ratio === undefined
    ? 'telemetry: off (OTEL_SDK_DISABLED=true in every process)'
    : `telemetry: on; gateway samples ${ratio} of traces (parentbased_traceidratio), OTLP/HTTP export`;
}

async function startBareServer(
  body: Buffer,
  contentType: string,
): Promise<{ url: string; child: ChildProcess }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-bench-'));
  const bodyFile = path.join(dir, 'schemes.json');
  writeFileSync(bodyFile, body);
  const child = fork(path.join(__dirname, 'bare-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { PATH: process.env.PATH ?? '', BODY_FILE: bodyFile, CONTENT_TYPE: contentType },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (msg) => resolve((msg as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`bare server exited (${code}) before listening`)));
    });
    return { url: `http://127.0.0.1:${port}/v1/schemes`, child };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function runGatewayBench(opts: GatewayBenchOptions): Promise<boolean> {
  const ratio = traceRatio();
  console.log(
    `starting the system (every service its own process, LOG_LEVEL=warn, ${telemetryLine(ratio)})...`,
  );
  const receiver = ratio === undefined ? undefined : await startOtlpReceiver();
  const system = await startSystem(systemOptions(ratio, receiver)).catch(async (err: unknown) => {
    await receiver?.close();
    throw err;
  });
  let bare: { url: string; child: ChildProcess } | undefined;
  try {
    const tenant = await system.createTenant(`bench-${randomBytes(4).toString('hex')}`, BENCH_RATE_LIMIT);
    const headers = { 'x-api-key': tenant.apiKey };
    const gatewayUrl = `${system.gatewayUrl}/v1/schemes`;
    const first = await fetch(gatewayUrl, { headers });
    const body = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200) throw new Error(`GET /v1/schemes answered ${first.status}: ${body.toString()}`);
    bare = await startBareServer(body, first.headers.get('content-type') ?? 'application/json');

    const targets: Record<Target, string> = { bare: bare.url, gateway: gatewayUrl };
    const runs: Record<Target, LoadResult[]> = { bare: [], gateway: [] };
    const rows: Row[] = [];
    console.log(
      `body ${body.length} bytes; c=${opts.connections}, ${opts.warmupSeconds} s warm-up + ${opts.durationSeconds} s per run, ` +
        `${opts.rounds} rounds alternating bare → gateway`,
    );
    for (let round = 1; round <= opts.rounds; round++) {
      for (const target of ['bare', 'gateway'] as const) {
        // Same request (key header included) to both, so they parse the same bytes.
        const load = { url: targets[target], headers, connections: opts.connections };
        await runLoad({ ...load, durationSeconds: opts.warmupSeconds });
        const run = await runLoad({ ...load, durationSeconds: opts.durationSeconds });
        runs[target].push(run);
        const row = rowOf(target, round, run);
        rows.push(row);
        console.log(
          `  round ${round} ${target}: ${row.reqPerSec.toFixed(0)} req/s, p99 ${row.p99Ms.toFixed(2)} ms`,
        );
      }
    }

    const summary = summarize(rows, runs);
    const context = [
      `GET /v1/schemes, ${body.length} bytes; c=${opts.connections}; ${os.cpus().length} cores, Node ${process.version}`,
      receiver ? `${telemetryLine(ratio)}; ${receiver.spans.length} spans received` : telemetryLine(ratio),
      'gateway: x-api-key checked (cached key hash), Redis sliding-window limit checked and recorded per request, LOG_LEVEL=warn',
      'bare: node:http, same body bytes (catalogue serialized once, fresh request id spliced in per request)',
    ];
    console.log(`\n${formatTable(summary, context)}`);
    const file = writeResults(
      REPO_ROOT,
      { ...opts, bodyBytes: body.length, telemetry: telemetryLine(ratio) },
      summary,
    );
    console.log(`\nresults written to ${path.relative(REPO_ROOT, file)}`);
    return summary.pass.all;
  } finally {
    if (bare) await stopChild(bare.child);
    await system.stop();
    await receiver?.close();
  }
}
