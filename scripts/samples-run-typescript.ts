import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { QrPayoutError } from '@qr-payout/client';

// Runs the TypeScript samples that gateway/src/docs/samples/cli.ts wrote into <dir>/typescript against the sandbox their
// environment names, for scripts/lib/samples.sh (docs/testing.md "Samples"):
//
//   node --conditions=development --import tsx scripts/samples-run-typescript.ts <dir>
//
// One process for all of them (a Node start each would cost more than the calls): each sample is
// imported as written, in the order of statuses.tsv, from a folder of the clone so that its
// `@qr-payout/client` resolves as in any workspace. Per sample it writes <operationId>.status (`2xx`
// for an answer, a QrPayoutError's status, or what else broke), .stdout and .stderr; samples.sh
// judges them. A write to stderr while the sample runs fails it there.

const ROOT = path.resolve(__dirname, '..');

type Stream = NodeJS.WriteStream;

/** Sends what `stream` is given to `into` until the returned function is called. */
function capture(stream: Stream, into: string[]): () => void {
  const write = stream.write;
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as Stream['write'];
  return () => {
    stream.write = write;
  };
}

async function statusOf(file: string): Promise<string> {
  try {
    await import(pathToFileURL(file).href);
    return '2xx';
  } catch (error) {
    if (error instanceof QrPayoutError) return String(error.status);
    console.error(error);
    return `error ${error instanceof Error ? error.name : typeof error}`;
  }
}

async function main(dir: string): Promise<void> {
  const samples = path.join(dir, 'typescript');
  const operations = readFileSync(path.join(dir, 'statuses.tsv'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[0]!);
  const inClone = mkdtempSync(path.join(ROOT, '.samples-run-'));
  try {
    for (const op of operations) {
      const file = path.join(inClone, `${op}.mts`);
      copyFileSync(path.join(samples, `${op}.mts`), file);
      const stdout: string[] = [];
      const stderr: string[] = [];
      const release = [capture(process.stdout, stdout), capture(process.stderr, stderr)];
      const status = await statusOf(file);
      for (const undo of release) undo();
      writeFileSync(path.join(samples, `${op}.status`), status);
      writeFileSync(path.join(samples, `${op}.stdout`), stdout.join(''));
      writeFileSync(path.join(samples, `${op}.stderr`), stderr.join(''));
    }
  } finally {
    rmSync(inClone, { recursive: true, force: true });
  }
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: samples-run-typescript.ts <dir>');
  process.exit(2);
}
main(dir).catch((error: unknown) => {
  console.error(`samples: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
