// scripts/lib/samples.sh's samples_run_curl (docs/testing.md "Samples"): a curl sample that writes
// anything to stderr fails, whatever status it got (a missing command, such as a UUID maker, leaves
// a request without its Idempotency-Key, whose documented 400 would otherwise pass). Run on a folder
// laid out as gateway/src/docs/samples/cli.ts writes it, with a `curl` on PATH that answers 200
// without a network, so only the stderr rule decides.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
