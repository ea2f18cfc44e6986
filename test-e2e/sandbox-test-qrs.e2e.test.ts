// Every entry of the sandbox test-QR catalogue (docs/sandbox-test-qrs.md) gives, through
// the real gateway, decoder, payout and partner simulator, the result the catalogue states; the
// catalogue's strings are the ones the generator builds with the decoder's encoder; and the
// gateway serves the catalogue without a key.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  DYNAMIC_PIX_CHARGE,
  SANDBOX_TEST_AMOUNTS,
  SANDBOX_TEST_PAYER,
  SANDBOX_TEST_QRS,
  type SandboxTestQr,
} from '../gateway/src/docs/sandbox-test-qrs';
import { type System, startSystem, type TestTenant } from './harness';
import { generateSandboxTestQrStrings } from './support/generate-sandbox-test-qrs';
import { type ApiResponse, call } from './support/http';
import type { PublicTransaction } from './support/pay';

jest.setTimeout(120_000);

let system: System;
let tenant: TestTenant;

beforeAll(async () => {
  system = await startSystem({
    // Pay waits 2 s for a terminal state; the slow outcome (…54) settles after 5 s, so its answer
    // is `processing` as in the sandbox (20 s there, 8 s of wait).
    partnerSimEnv: { PARTNER_SIM_SLOW_SETTLE_MS: '5000' },
    serviceEnv: { payout: { EXECUTE_WAIT_MS: '2000', POLL_INTERVAL_MS: '200' } },
  });
  tenant = await system.createTenant(`e2e-test-qrs-${randomBytes(4).toString('hex')}`, 1_000);
}, 180_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

async function qrStringOf(entry: SandboxTestQr): Promise<string> {
  if (entry.qr_string !== null) return entry.qr_string;
  // The dynamic Pix entry: a charge made at the partner simulator, as its how_to_get says.
  const res = await fetch(`${system.partnerSimUrl}/pix/v2/cob`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DYNAMIC_PIX_CHARGE),
    signal: AbortSignal.timeout(5_000),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { qr_string: string }).qr_string;
}

async function send(entry: SandboxTestQr): Promise<ApiResponse> {
  const body = {
    qr_string: await qrStringOf(entry),
    ...(entry.amount !== undefined ? { amount: entry.amount } : {}),
    ...(entry.operation === 'pay' ? SANDBOX_TEST_PAYER : {}),
  };
  return call(system.gatewayUrl, `/v1/${entry.operation}`, {
    apiKey: tenant.apiKey,
    body: JSON.stringify(body),
    contentType: 'application/json',
    headers: entry.operation === 'pay' ? { 'idempotency-key': randomUUID() } : {},
  });
}

async function terminal(id: string, timeoutMs = 30_000): Promise<PublicTransaction> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(system.gatewayUrl, `/v1/transactions/${id}`, { apiKey: tenant.apiKey });
    expect(res.status).toBe(200);
    const txn = res.json?.transaction as PublicTransaction;
    if (txn.status === 'completed' || txn.status === 'failed' || Date.now() > deadline) return txn;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What the system did with the entry, in the catalogue's terms. */
async function observe(entry: SandboxTestQr) {
  const res = await send(entry);
  const seen: Record<string, unknown> = { id: entry.id, http_status: res.status };
  if (res.status !== 200) return { ...seen, error: res.json?._tag };
  if (entry.operation === 'resolve') {
    return {
      ...seen,
      confidence: (res.json?.instruction as { confidence?: number } | undefined)?.confidence,
    };
  }
  const answered = res.json?.transaction as PublicTransaction;
  const settled = await terminal(answered.id);
  return {
    ...seen,
    ...(entry.expected.answered_status ? { answered_status: answered.status } : {}),
    transaction_status: settled.status,
    ...(settled.error ? { error_code: settled.error.code } : {}),
  };
}

describe('sandbox test QR catalogue end to end', () => {
  it('holds the strings the generator builds with the decoder encoder', () => {
    const catalogue = Object.fromEntries(
      SANDBOX_TEST_QRS.filter((qr) => qr.qr_string !== null).map((qr) => [qr.id, qr.qr_string]),
    );
    expect(catalogue).toEqual(generateSandboxTestQrStrings());
  });

  it('gives every entry its expected result through the gateway', async () => {
    const results = await Promise.all(SANDBOX_TEST_QRS.map(observe));
    expect(results).toEqual(SANDBOX_TEST_QRS.map((qr) => ({ id: qr.id, ...qr.expected })));
  });

  it('an amountless code without an amount is 422 AmountRequired, as its description says', async () => {
    const entry = SANDBOX_TEST_QRS.find((qr) => qr.id === 'br-static-amountless') as SandboxTestQr;
    const { amount: _omitted, ...withoutAmount } = entry;
    const res = await send(withoutAmount);
    expect({ status: res.status, tag: res.json?._tag }).toEqual({ status: 422, tag: 'AmountRequired' });
  });

  it('serves the catalogue as JSON and as a page, without an API key', async () => {
    const json = await call(system.gatewayUrl, '/v1/sandbox/test-qrs');
    expect(json.status).toBe(200);
    expect(json.json).toMatchObject({ test_amounts: SANDBOX_TEST_AMOUNTS, test_qrs: SANDBOX_TEST_QRS });
    const page = await call(system.gatewayUrl, '/docs/sandbox-test-qrs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sandbox test QR codes');
    // Every code with a string is also an image to scan (docs/sandbox-test-qrs.md "QR images").
    for (const qr of SANDBOX_TEST_QRS) {
      if (qr.qr_string) expect(page.text).toContain(`aria-label="QR code ${qr.id}"`);
    }
    const docs = await call(system.gatewayUrl, '/docs');
    expect(docs.text).toContain('href="/docs/sandbox-test-qrs"');
    expect(docs.text).toContain('href="/docs/api"');
    // The API pages the descriptions link to (gateway README "Served docs").
    const idempotency = await call(system.gatewayUrl, '/docs/api/idempotency');
    expect(idempotency.status).toBe(200);
    expect(idempotency.headers.get('content-security-policy')).toContain("script-src 'self'");
    // The page the test codes link for amounts and triggers (docs/api/sandbox.md "Triggers").
    expect(page.text).toContain('href="/docs/api/sandbox"');
    const sandbox = await call(system.gatewayUrl, '/docs/api/sandbox');
    expect(sandbox.status).toBe(200);
    expect(sandbox.text).toContain('<h2 id="triggers">');
    const unknown = await call(system.gatewayUrl, '/docs/api/nope');
    expect({ status: unknown.status, tag: unknown.json?._tag }).toEqual({
      status: 404,
      tag: 'NotFoundError',
    });
  });
});
