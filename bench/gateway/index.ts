// Gateway benchmark (bench/README.md): authenticated, rate-limited GET /v1/schemes against a bare
// node:http server returning the same bytes, measured alternately in the same run.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, startSystem } from '../../test-e2e/harness';
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
 * stay below it up to ~27k req/s, and a refusal would show as non-2xx and fail the run. The limiter
 * still runs its Lua script on every request.
 */
const BENCH_RATE_LIMIT = 1_000_000;

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
  console.log(`starting the system (every service its own process, LOG_LEVEL=warn, telemetry off)...`);
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const system = await startSystem({
    logLevel: 'warn',
    // The gateway writes a V8 CPU profile there when it stops (bench/README.md: profiling).
    ...(profileDir ? { gatewayEnv: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(profileDir)}` } } : {}),
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
    console.log(`\n${formatTable(summary)}`);
    const file = writeResults(REPO_ROOT, { ...opts, bodyBytes: body.length }, summary);
    console.log(`\nresults written to ${path.relative(REPO_ROOT, file)}`);
    return summary.pass.all;
  } finally {
    if (bare) await stopChild(bare.child);
    await system.stop();
  }
}
