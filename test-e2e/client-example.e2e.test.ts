// The example app runs in CI against the sandbox: the typed client's example
// (client/examples/pay-and-wait.ts) run as its own process against `npm start`'s sandbox, as an
// integrator runs it: it resolves the sandbox Pix QR, pays it with --yes, receives the webhook on
// its own HTTP server (callback_url) and verifies the signature. The test then reads the
// transaction itself.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type PayRequest } from '@qr-payout/client';
import { baseEnv } from '../sandbox/test/child-process';
import { spawnTsProcess } from './harness';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

jest.setTimeout(240_000);

let dir: string;
let sandbox: SandboxProcess;

/** Only what a developer's shell would give (baseEnv): no test-runner or infrastructure variables. */
function shellEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...baseEnv(), ...extra };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-client-example-'));
  sandbox = await startSandboxProcess();
}, 200_000);

afterAll(async () => {
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

it('resolves, pays and receives a verified webhook; the transaction is completed', async () => {
  const example = spawnTsProcess({
    name: 'pay-and-wait',
    script: 'client/examples/pay-and-wait.ts',
    args: ['--yes', '--amount', '25.90', '--timeout-ms', '30000'],
    env: shellEnv({
      QR_PAYOUT_BASE_URL: sandbox.baseUrl,
      QR_PAYOUT_API_KEY: sandbox.apiKey,
      QR_PAYOUT_SIGNING_SECRET: sandbox.signingSecret,
      OTEL_SDK_DISABLED: 'true',
    }),
    logDir: dir,
  });
  const code = await example.exited;
  const output = example.logTail(100);
  expect({ code, output }).toEqual({ code: 0, output: expect.any(String) });
  expect(output).toMatch(/^instruction ins_\w+$/m);
  expect(output).toMatch(/^ {2}amount: +25\.9 BRL$/m);
  const txn = /^transaction (txn_\w+): completed, reference (\S+)$/m.exec(output);
  expect(txn).not.toBeNull();
  expect(output).toMatch(/^webhook transaction\.completed [0-9a-f-]{36}: signature verified$/m);

  // What the example printed is what the API holds.
  const res = await fetch(`${sandbox.baseUrl}/v1/transactions/${txn![1]}`, {
    headers: { 'x-api-key': sandbox.apiKey },
  });
  const body = (await res.json()) as { transaction: { status: string; result: { reference: string } } };
  expect(body.transaction.status).toBe('completed');
  expect(body.transaction.result.reference).toBe(txn![2]);
});

it("retries a same-key pay's 409 IdempotencyInProgress until the first answer is replayed", async () => {
  // …54 settles late (docs/partner-protocol.md "Sandbox outcomes"): the first pay holds its key for
  // the gateway's whole wait, so the second, same key, is answered 409 until the first finishes.
  const retried: string[] = [];
  const client = createClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    retry: { maxAttempts: 30, baseDelayMs: 200, maxDelayMs: 1_000 },
    onRetry: ({ tag }) => retried.push(tag),
  });
  const body: PayRequest = {
    qr_string:
      '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-4266141740005204581253039865802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2EOUT16304DAE0',
    amount: 12.54,
    payer_name: 'Juan Perez',
    payer_account: '0001-1234567',
    payer_tax_id: '20-12345678-6',
    payer_country: 'AR',
    payer_id_type: 'tax_id',
  };
  const idempotencyKey = `client-e2e-${randomBytes(8).toString('hex')}`;
  const first = client.pay(body, { idempotencyKey });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const second = await client.pay(body, { idempotencyKey });
  expect(retried).toContain('IdempotencyInProgress');
  // On a machine loaded enough for an internal deadline to pass, a retry may also follow a 503
  // ServiceUnavailable, which the client retries with the same key too; nothing else is retried.
  expect(retried.filter((tag) => tag !== 'IdempotencyInProgress' && tag !== 'ServiceUnavailable')).toEqual(
    [],
  );
  expect(second.transaction.id).toBe((await first).transaction.id);
});
