// docs/quick-start.md followed as written. The sandbox runs as
// `npm start` runs it (sandbox/src/main.ts as its own process, on a fresh data dir), the doc's
// `sh` blocks marked `<!-- quick-start:run -->` run in one bash in order, the block marked
// `<!-- quick-start:background -->` (the webhook receiver) runs beside them, and the only changes
// are the ones the doc tells a reader to make: another port for the sandbox and the receiver, and
// here another data dir. The payment must complete and the receiver must print `paid <id>`, which
// it does only for an event whose signature verified. The commands `npm start` prints are run too.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { baseEnv, REPO_ROOT } from '../sandbox/test/child-process';
import { freePort } from './harness';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

jest.setTimeout(120_000);

const DOC = path.join(REPO_ROOT, 'docs', 'quick-start.md');
const DOC_URL = 'http://localhost:8080';
const DOC_CREDENTIALS = './.data/sandbox.json';
const DOC_RECEIVER = '127.0.0.1:9000';

let sandbox: SandboxProcess;
let baseUrl: string;
let receiverPort: number;
let receiver: ReturnType<typeof spawn>;
let receiverOutput = '';

/** The bash of a reader: the Node running this test first on PATH (npm start's Node). */
function shellEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...baseEnv(), PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`, ...extra };
}

/** The `sh` blocks after a `<!-- quick-start:<mark> -->` line, in order. */
function markedBlocks(doc: string, mark: 'run' | 'background'): string[] {
  const pattern = new RegExp(`<!-- quick-start:${mark} -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``, 'g');
  return [...doc.matchAll(pattern)].map((match) => match[1] as string);
}

/** What the doc tells the reader to change when a port is taken; every one must be there to change. */
function asTheReaderWould(block: string): string {
  return block
    .replaceAll(DOC_URL, baseUrl)
    .replaceAll(DOC_CREDENTIALS, path.join(sandbox.dataDir, 'sandbox.json'))
    .replaceAll(DOC_RECEIVER, `127.0.0.1:${receiverPort}`);
}

function runBash(script: string): string {
  return execFileSync('bash', ['--norc', '--noprofile', '-c', `set -euo pipefail\n${script}`], {
    cwd: REPO_ROOT,
    env: shellEnv(),
    encoding: 'utf8',
    timeout: 60_000,
  });
}

async function receiverPrinted(line: string, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!receiverOutput.split('\n').includes(line)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** The `transaction` of the last line that is a JSON body (the GET of the transaction). */
function lastTransaction(stdout: string): { id: string; status: string } {
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"transaction"'));
  return (JSON.parse(line ?? '{}') as { transaction: { id: string; status: string } }).transaction;
}

beforeAll(async () => {
  // npm start builds the receiver's library before starting the sandbox; so does this test.
  execFileSync(
    path.join(REPO_ROOT, 'node_modules', '.bin', 'tsc'),
    ['-b', 'webhook-receiver/tsconfig.build.json'],
    {
      cwd: REPO_ROOT,
      env: shellEnv(),
      stdio: 'pipe',
    },
  );
  // As a newcomer's `npm start` runs it, since that is what the doc promises to work: a shell's
  // variables only (nothing of the test runner's, such as DATABASE_URL, can make it pass here and
  // fail there), on the other ports the doc tells a reader to pick, and no credentials given, so the
  // sandbox makes its own and keeps them in sandbox.json, the file the doc's commands read
  // (credentials given by env are used but never written there).
  sandbox = await startSandboxProcess({
    credentials: 'own',
    env: { LOG_LEVEL: 'warn' },
    startTimeoutMs: 90_000,
  });
  // The URL the banner prints, which its commands use.
  baseUrl = /^ {2}Base URL: +(\S+)$/m.exec(sandbox.child.output())?.[1] as string;
  receiverPort = await freePort();

  const [background, ...more] = markedBlocks(readFileSync(DOC, 'utf8'), 'background');
  expect(more).toEqual([]);
  const receiverScript = `set -euo pipefail\n${asTheReaderWould(background as string)}`;
  receiver = spawn('bash', ['--norc', '--noprofile', '-c', receiverScript], {
    cwd: REPO_ROOT,
    // Its own process group, so stopping it stops node too, whatever bash does with its child.
    detached: true,
    // "Port 9000 taken? Start it with PORT=9100 and use http://127.0.0.1:9100/hook as the callback_url."
    env: shellEnv({ PORT: String(receiverPort) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  receiver.stdout?.on('data', (chunk: Buffer) => {
    receiverOutput += chunk.toString('utf8');
  });
  receiver.stderr?.on('data', (chunk: Buffer) => {
    receiverOutput += chunk.toString('utf8');
  });
  expect(await receiverPrinted(`listening on 127.0.0.1:${receiverPort}/hook`, 10_000)).toBe(true);
}, 150_000);

afterAll(async () => {
  if (receiver?.pid !== undefined && receiver.exitCode === null) process.kill(-receiver.pid, 'SIGTERM');
  await sandbox?.stop();
}, 60_000);

describe('docs/quick-start.md, as written', () => {
  it('completes a payment and the receiver verifies its webhook', async () => {
    const doc = readFileSync(DOC, 'utf8');
    const blocks = markedBlocks(doc, 'run');
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const script = blocks.join('\n');
    for (const text of [DOC_URL, DOC_CREDENTIALS, DOC_RECEIVER]) expect(script).toContain(text);

    const stdout = runBash(blocks.map(asTheReaderWould).join('\n'));
    expect(stdout).toContain('"schemes":[');
    expect(stdout).toContain('"instruction":{"id":"ins_');
    const transaction = lastTransaction(stdout);
    expect(transaction).toMatchObject({ id: expect.stringMatching(/^txn_/), status: 'completed' });
    expect(await receiverPrinted(`paid ${transaction.id}`)).toBe(true);
  });

  it('the commands npm start prints work as printed too', async () => {
    // The banner's command lines: the key's export, the schemes, the resolve, the pay (whose
    // callback_url is the receiver, on this test's port as the doc says) and the transaction.
    const lines = sandbox.child
      .output()
      .split('\n')
      .filter(
        (line) =>
          line.startsWith('  export QR_PAYOUT_API_KEY=') ||
          line.startsWith(`  curl -s ${baseUrl}/`) ||
          line.startsWith('  PAY=$(curl'),
      )
      .map((line) => line.trim().replaceAll(DOC_RECEIVER, `127.0.0.1:${receiverPort}`));
    expect(lines).toHaveLength(5);
    const stdout = runBash(lines.join('\n'));
    expect(stdout).toContain('"schemes":[');
    const transaction = lastTransaction(stdout);
    expect(transaction).toMatchObject({ id: expect.stringMatching(/^txn_/), status: 'completed' });
    expect(await receiverPrinted(`paid ${transaction.id}`)).toBe(true);
  });
});
