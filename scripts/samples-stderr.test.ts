// scripts/lib/samples.sh (docs/testing.md "Samples"): a sample that writes anything to stderr fails,
// whatever status it got (a missing command, such as a UUID maker, leaves a curl request without its
// Idempotency-Key, whose documented 400 would otherwise pass). The curl samples run on a folder laid
// out as gateway/src/docs/samples/cli.ts writes it, with a `curl` on PATH that answers 200 without a
// network, so only the stderr rule decides; a Go sample's one allowed line is the log.Fatal of an API
// error, whose status it reads; the TypeScript runner records what a sample writes while it runs.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'samples-stderr-'));
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  // curl's -w "%{http_code}": what the sample prints as its status.
  writeFileSync(path.join(bin, 'curl'), '#!/bin/sh\nprintf 200\n');
  chmodSync(path.join(bin, 'curl'), 0o755);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the samples (operationId → curl sample) and runs samples_run_curl on them. */
function runCurlSamples(samples: Record<string, string>) {
  const samplesDir = path.join(dir, 'samples');
  mkdirSync(path.join(samplesDir, 'curl'), { recursive: true });
  const statuses = Object.keys(samples).map((op) => `${op}\t200 400\n`);
  writeFileSync(path.join(samplesDir, 'statuses.tsv'), statuses.join(''));
  for (const [op, script] of Object.entries(samples))
    writeFileSync(path.join(samplesDir, 'curl', `${op}.sh`), script);
  const run = spawnSync(
    'bash',
    ['-c', 'source "$ROOT/scripts/lib/samples.sh" && samples_run_curl "$1"', '_', samplesDir],
    {
      encoding: 'utf8',
      env: { PATH: `${path.join(dir, 'bin')}:${process.env.PATH ?? ''}`, ROOT },
    },
  );
  return { status: run.status, stderr: run.stderr };
}

describe('samples_run_curl', () => {
  it('passes a sample that answers a documented status and writes nothing to stderr', () => {
    const run = runCurlSamples({ listSchemes: 'curl -s http://127.0.0.1:8080/v1/schemes\n' });
    expect(run).toEqual({ status: 0, stderr: expect.stringMatching(/^samples: curl +listSchemes +200 *$/m) });
  });

  it('fails a sample that writes to stderr, naming what it wrote, and still passes the clean one', () => {
    const run = runCurlSamples({
      listSchemes: 'curl -s http://127.0.0.1:8080/v1/schemes\n',
      // A command the machine lacks: the request still goes out, without its key.
      pay: 'curl -s http://127.0.0.1:8080/v1/pay -H "idempotency-key: $(uuidgen-not-installed)"\n',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^samples: curl +listSchemes +200 *$/m);
    expect(run.stderr).toMatch(
      /^samples: curl pay answered stderr: .*uuidgen-not-installed: command not found; it documents 200 400, and a 5xx never passes$/m,
    );
  });
});

/** samples_go_status on a Go sample's exit code and stderr. */
function goStatus(code: number, stderr: string): string {
  const file = path.join(dir, 'go.stderr');
  writeFileSync(file, stderr);
  const run = spawnSync(
    'bash',
    ['-c', 'source "$ROOT/scripts/lib/samples.sh" && samples_go_status "$1" "$2"', '_', String(code), file],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ROOT } },
  );
  return run.stdout.trim();
}

describe('samples_go_status', () => {
  it('reads an answer as 2xx, and the status of the API error a sample stopped on', () => {
    expect(goStatus(0, '')).toBe('2xx');
    expect(goStatus(1, '2026/11/29 12:00:00 qrpayout: 409 DeliveryInFlight: still pending\n')).toBe('409');
  });

  it('fails anything else on stderr: a second line, another error, a panic, a line beside an answer', () => {
    const apiError = '2026/11/29 12:00:00 qrpayout: 404 NotFound: no such transaction\n';
    for (const [code, stderr] of [
      [1, `2026/11/29 12:00:00 debug\n${apiError}`],
      [1, '2026/11/29 12:00:00 Get "http://127.0.0.1:1/v1/schemes": connection refused\n'],
      [2, 'panic: runtime error: invalid memory address or nil pointer dereference\n'],
      [0, '2026/11/29 12:00:00 debug\n'],
    ] as const) {
      expect(goStatus(code, stderr)).toMatch(new RegExp(`^exit ${code}, stderr: `));
    }
  });
});

describe('samples-run-typescript.ts', () => {
  /** Runs the TypeScript samples (operationId → code) through the runner; what it wrote per sample. */
  function runTypescriptSamples(samples: Record<string, string>) {
    const samplesDir = path.join(dir, 'samples');
    mkdirSync(path.join(samplesDir, 'typescript'), { recursive: true });
    writeFileSync(
      path.join(samplesDir, 'statuses.tsv'),
      Object.keys(samples)
        .map((op) => `${op}\t200 409\n`)
        .join(''),
    );
    for (const [op, code] of Object.entries(samples))
      writeFileSync(path.join(samplesDir, 'typescript', `${op}.mts`), code);
    const runner = path.join(ROOT, 'scripts/samples-run-typescript.ts');
    const run = spawnSync(
      process.execPath,
      ['--conditions=development', '--import', 'tsx', runner, samplesDir],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const read = (op: string, kind: string) =>
      readFileSync(path.join(samplesDir, 'typescript', `${op}.${kind}`), 'utf8');
    return Object.fromEntries(
      Object.keys(samples).map((op) => [
        op,
        { status: read(op, 'status'), stdout: read(op, 'stdout'), stderr: read(op, 'stderr') },
      ]),
    );
  }

  it("records each sample's status, its stdout and its stderr apart", () => {
    const results = runTypescriptSamples({
      answered: "console.log('answer');\n",
      refused:
        "import { QrPayoutError } from '@qr-payout/client';\n" +
        "throw new QrPayoutError(409, undefined, 1, 'in flight');\n",
      noisy: "console.warn('debug');\nconsole.log('answer');\n",
      broken: '(undefined as unknown as { pay(): void }).pay();\n',
    });
    expect(results['answered']).toEqual({ status: '2xx', stdout: 'answer\n', stderr: '' });
    expect(results['refused']).toEqual({ status: '409', stdout: '', stderr: '' });
    expect(results['noisy']).toEqual({ status: '2xx', stdout: 'answer\n', stderr: 'debug\n' });
    expect(results['broken']).toEqual({
      status: 'error TypeError',
      stdout: '',
      stderr: expect.stringContaining('TypeError'),
    });
  }, 60_000);
});
