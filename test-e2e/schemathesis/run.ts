// The `schemathesis` stage of scripts/test-all (docs/testing.md "Schemathesis"): the whole system as
// the e2e suite starts it, one tenant whose rate limit the run cannot reach, then Schemathesis
// (`st run`, installed by scripts/schemathesis) against the document the gateway serves, with every
// check on. Exits with st's status: non-zero on any server error, any response the document does not
// allow, or an example its schema refuses.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, type System, startSystem } from '../harness';

/** Generated cases per operation; with the time budget this keeps the stage within 3 minutes on 2 cores. */
const MAX_EXAMPLES = process.env.SCHEMATHESIS_MAX_EXAMPLES ?? '25';
/** Time budget of the whole st run in seconds (`--max-time`): fuzzing and stateful stop at it. */
const MAX_TIME_SECONDS = process.env.SCHEMATHESIS_MAX_TIME ?? '120';
// A fixed seed in CI, so a change is judged on the same inputs as the one before it (a random run
// failing on an old finding would block unrelated work); SCHEMATHESIS_SEED=<n> explores others,
// and a failure prints the seed that reproduces it (docs/testing.md "Schemathesis").
const SEED = process.env.SCHEMATHESIS_SEED ?? '20261124';
/** Far above what a run sends, so no answer is a 429 the run caused itself. */
const RATE_LIMIT_PER_MINUTE = 1_000_000;

const HERE = path.join(REPO_ROOT, 'test-e2e', 'schemathesis');

function runSchemathesis(bin: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      stdio: 'inherit',
      // st keeps a cache of failures (.schemathesis/) in its working directory: the run's own.
      cwd,
      env: { ...process.env, SCHEMATHESIS_HOOKS_FILE: path.join(HERE, 'hooks.py') },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<number> {
  const bin = process.env.SCHEMATHESIS_BIN;
  if (!bin) throw new Error('SCHEMATHESIS_BIN is not set: run scripts/schemathesis');
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-schemathesis-'));
  let system: System | undefined;
  let status = 1;
  try {
    system = await startSystem({ readyTimeoutMs: 120_000 });
    const tenant = await system.createTenant('schemathesis', RATE_LIMIT_PER_MINUTE);
    status = await runSchemathesis(
      bin,
      [
        '--config-file',
        path.join(HERE, 'schemathesis.toml'),
        'run',
        `${system.gatewayUrl}/v1/openapi.json`,
        '--url',
        system.gatewayUrl,
        '--header',
        `x-api-key: ${tenant.apiKey}`,
        '--checks',
        'all',
        '--max-examples',
        MAX_EXAMPLES,
        '--seed',
        SEED,
        '--max-time',
        MAX_TIME_SECONDS,
        '--workers',
        '2',
        '--request-timeout',
        '20',
        '--generation-database',
        'none',
        '--report',
        'junit',
        '--report-dir',
        reportDir,
        '--no-color',
      ],
      reportDir,
    );
    if (status !== 0) console.error(`schemathesis: failed (exit ${status}); JUnit report in ${reportDir}`);
    else rmSync(reportDir, { recursive: true, force: true });
  } finally {
    const exits = (await system?.stop()) ?? [];
    const unclean = exits.filter((e) => e.exit !== 0);
    if (unclean.length > 0) {
      console.error(`schemathesis: processes did not exit cleanly: ${JSON.stringify(unclean)}`);
      status ||= 1;
    }
  }
  return status;
}

main().then(
  (status) => process.exit(status),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
