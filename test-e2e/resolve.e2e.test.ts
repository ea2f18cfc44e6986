// POST /v1/resolve end to end (docs/api/resources.md "Instructions (resolve)";
// docs/architecture.md "Transactions"): the gateway, decoder, fx and payout as separate processes
// against real PostgreSQL, Redis and Kafka, plus the partner simulator serving dynamic Pix. Tenant
// isolation is checked on payout's GetInstruction over gRPC (there is no public read of an
// instruction yet; execute will read it the same way).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Code, ConnectError } from '@connectrpc/connect';
import { readErrorDetail } from '@qr-payout/platform/errors';
import { createGrpcClient } from '@qr-payout/platform/grpc';
import { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { MERCHANT_QRS, type MerchantQr, withBrokenCrc } from '@qr-payout/test-kit/qrs';
import { encodeMerchantQr } from '../services/decoder/src/emv/encode';
import { type System, startSystem, type TestTenant } from './harness';
import { expectErrorBody } from './support/error-body';
import { type ApiResponse, call, UUID } from './support/http';

jest.setTimeout(120_000);

const SPEC_FIELDS = ['amount', 'confidence', 'country', 'creditor', 'currency', 'id', 'scheme'];
const QUOTE_FIELDS = [
  'expires_at',
  'fee',
  'id',
  'rate',
  'source_amount',
  'source_currency',
  'target_amount',
  'target_currency',
];
// For the QR without an amount (Yape): what the payer typed.
const ENTERED_AMOUNT = 25.5;

let system: System;
let tenant: TestTenant;
let otherTenant: TestTenant;

beforeAll(async () => {
  system = await startSystem();
  const suffix = randomBytes(4).toString('hex');
  [tenant, otherTenant] = await Promise.all([
    system.createTenant(`e2e-resolve-a-${suffix}`),
    system.createTenant(`e2e-resolve-b-${suffix}`),
  ]);
}, 240_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

function resolve(body: object, apiKey = tenant.apiKey): Promise<ApiResponse> {
  return call(system.gatewayUrl, '/v1/resolve', {
    apiKey,
    body: JSON.stringify(body),
    contentType: 'application/json',
  });
}

function bodyFor(qr: MerchantQr, extra: object = {}): object {
  return { qr_string: qr.qrString, ...(qr.amount === undefined ? { amount: ENTERED_AMOUNT } : {}), ...extra };
}

type PublicInstruction = Record<string, unknown> & {
  quote?: Record<string, unknown> | null;
  creditor: { name: string; account: string };
};

function instructionOf(res: ApiResponse): PublicInstruction {
  expect({ status: res.status, body: res.json }).toMatchObject({ status: 200 });
  expect(res.json!.request_id).toBe(res.headers.get('x-request-id'));
  expect(res.json!.request_id).toMatch(UUID);
  expect(Object.keys(res.json!).sort()).toEqual(['instruction', 'request_id']);
  return res.json!.instruction as PublicInstruction;
}

function expectSpecInstruction(instruction: PublicInstruction, qr: MerchantQr): void {
  expect(instruction.id).toMatch(/^ins_[0-9A-HJKMNP-TV-Z]{26}$/);
  expect(instruction).toMatchObject({
    amount: qr.amount ?? ENTERED_AMOUNT,
    currency: qr.currency,
    country: qr.country,
    creditor: { name: qr.creditorName },
  });
  expect(qr.schemes).toContain(instruction.scheme);
  expect(instruction.creditor.account.length).toBeGreaterThan(0);
  expect(instruction.confidence).toBeGreaterThan(0);
  expect(instruction.confidence).toBeLessThanOrEqual(1);
}

describe.each(MERCHANT_QRS.map((qr) => [qr.label, qr] as const))('%s', (_label, qr) => {
  test('without wallet_currency: exactly the docs/api/resources.md "Instructions (resolve)" fields', async () => {
    const instruction = instructionOf(await resolve(bodyFor(qr)));
    expect(Object.keys(instruction).sort()).toEqual(SPEC_FIELDS);
    expectSpecInstruction(instruction, qr);
  });

  test('with wallet_currency USD: an FX quote and the converted amount the user pays', async () => {
    const before = Date.now();
    const instruction = instructionOf(await resolve(bodyFor(qr, { wallet_currency: 'USD' })));
    expectSpecInstruction(instruction, qr);
    expect(Object.keys(instruction).sort()).toEqual(
      [...SPEC_FIELDS, 'quote', 'wallet_amount', 'wallet_currency'].sort(),
    );
    const quote = instruction.quote as Record<string, unknown>;
    expect(Object.keys(quote).sort()).toEqual(QUOTE_FIELDS);
    expect(quote).toMatchObject({
      source_currency: 'USD',
      target_currency: qr.currency,
      target_amount: instruction.amount,
    });
    expect(quote.id).toMatch(/^quo_/);
    expect(quote.rate).toMatch(/^\d+(\.\d+)?$/);
    expect(Number(quote.rate)).toBeGreaterThan(0);
    expect(Date.parse(quote.expires_at as string)).toBeGreaterThan(before);
    expect(quote.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // What the user pays: the conversion plus the fee on top, in cents (no float drift).
    expect(instruction.wallet_currency).toBe('USD');
    expect(Math.round((instruction.wallet_amount as number) * 100)).toBe(
      Math.round((quote.source_amount as number) * 100) + Math.round((quote.fee as number) * 100),
    );
    expect(quote.source_amount as number).toBeGreaterThan(0);
  });

  test('with wallet_currency equal to the payment currency: no quote, the user pays the amount', async () => {
    const instruction = instructionOf(await resolve(bodyFor(qr, { wallet_currency: qr.currency })));
    expectSpecInstruction(instruction, qr);
    expect(instruction).toMatchObject({
      wallet_currency: qr.currency,
      wallet_amount: instruction.amount,
      quote: null,
    });
  });
});

describe('dynamic Pix served by the partner simulator', () => {
  test('a charge created at the simulator resolves to its amount and receiver', async () => {
    const created = await fetch(`${system.partnerSimUrl}/pix/v2/cob`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        valor: '42.50',
        chave: '123e4567-e89b-42d3-a456-426614174000',
        nome: 'LOJA DINAMICA',
        cidade: 'RIO DE JANEIRO',
      }),
    });
    expect(created.status).toBe(201);
    const charge = (await created.json()) as { qr_string: string; txid: string };

    const instruction = instructionOf(await resolve({ qr_string: charge.qr_string, wallet_currency: 'EUR' }));
    expect(instruction).toMatchObject({
      amount: 42.5,
      currency: 'BRL',
      country: 'BR',
      scheme: 'BR.PIX',
      creditor: { name: 'LOJA DINAMICA', account: '123e4567-e89b-42d3-a456-426614174000' },
      wallet_currency: 'EUR',
    });
    expect(instruction.quote).toMatchObject({ source_currency: 'EUR', target_amount: 42.5 });

    // The stored instruction keeps the charge's txid for the rail.
    const payout = createGrpcClient(PayoutService, {
      baseUrl: system.serviceUrls.payout,
      tls: system.grpcTls,
      timeoutMs: 5_000,
    });
    const stored = await payout.getInstruction({
      tenantId: tenant.tenantId,
      instructionId: instruction.id as string,
    });
    expect(stored.instruction?.decoded?.references.txid).toBe(charge.txid);
  });
});

describe('QR text as pasted', () => {
  test('a valid QR with a newline and spaces around it resolves as the bare text does', async () => {
    const [pix] = MERCHANT_QRS;
    const instruction = instructionOf(await resolve({ qr_string: `\n ${pix!.qrString} \n` }));
    expectSpecInstruction(instruction, pix!);
    expect(instruction.creditor.account).toBe('123e4567-e89b-42d3-a456-426614174000');
  });
});

/** A loopback port nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('a dynamic Pix location whose PSP does not answer', () => {
  test("503 QrLocationUnavailable with Retry-After: the QR is fine, the merchant's PSP is down", async () => {
    // The harness's decoder allow-lists only the simulator for plain http; this one also allows a
    // port where nothing listens, and a gateway of its own talks to it.
    const downHost = `127.0.0.1:${await closedPort()}`;
    const simHost = new URL(system.partnerSimUrl).host;
    const decoder = await system.startService('decoder', {
      PIX_LOCATION_HTTP_HOSTS: `${simHost},${downHost}`,
    });
    const gateway = await system.startGateway({ DECODER_URL: decoder.url });
    const qr = encodeMerchantQr([
      { id: 1, value: '12' },
      {
        id: 26,
        value: [
          { id: 0, value: 'br.gov.bcb.pix' },
          { id: 25, value: `${downHost}/pix/v2/qr/0123456789abcdef0123456789abcdef` },
        ],
      },
      { id: 52, value: '0000' },
      { id: 53, value: '986' },
      { id: 58, value: 'BR' },
      { id: 59, value: 'LOJA DINAMICA' },
      { id: 60, value: 'RIO DE JANEIRO' },
    ]);
    const res = await call(gateway.url, '/v1/resolve', {
      apiKey: tenant.apiKey,
      body: JSON.stringify({ qr_string: qr }),
      contentType: 'application/json',
    });
    expectErrorBody(res, 503, 'QrLocationUnavailable', `${gateway.url}/docs`);
    expect(res.json!.message).toMatch(/could not be reached/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // A charge the PSP does answer for, through the same decoder, still resolves.
    const created = await fetch(`${system.partnerSimUrl}/pix/v2/cob`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ valor: '5.00', chave: 'loja@example.com', nome: 'LOJA DINAMICA' }),
    });
    const charge = (await created.json()) as { qr_string: string };
    const ok = await call(gateway.url, '/v1/resolve', {
      apiKey: tenant.apiKey,
      body: JSON.stringify({ qr_string: charge.qr_string }),
      contentType: 'application/json',
    });
    expect(instructionOf(ok)).toMatchObject({ amount: 5, scheme: 'BR.PIX' });
  });
});

describe('errors through the one registry', () => {
  const [pix] = MERCHANT_QRS;
  const yape = MERCHANT_QRS.find((qr) => qr.amount === undefined)!;
  const docsBase = () => `${system.gatewayUrl}/docs`;

  test('422 QrDecodeError whose message says what is wrong', async () => {
    const res = await resolve({ qr_string: withBrokenCrc(pix!.qrString) });
    expectErrorBody(res, 422, 'QrDecodeError', docsBase());
    expect(res.json!.message).toMatch(/CRC/);
  });

  test('422 AmountRequired for a QR without an amount and no amount sent', async () => {
    expectErrorBody(await resolve({ qr_string: yape.qrString }), 422, 'AmountRequired', docsBase());
  });

  test('422 AmountMismatch for an amount other than the QR amount', async () => {
    const res = await resolve({ qr_string: pix!.qrString, amount: (pix!.amount as number) + 1 });
    expectErrorBody(res, 422, 'AmountMismatch', docsBase());
  });

  test.each([
    ['unknown', 'XYZ'],
    ['lower case', 'usd'],
    ['too long', 'USDT'],
  ])('400 ValidationError naming wallet_currency (%s)', async (_case, walletCurrency) => {
    const res = await resolve({ qr_string: pix!.qrString, wallet_currency: walletCurrency });
    expectErrorBody(res, 400, 'ValidationError', docsBase());
    expect(res.json!.message).toMatch(/^wallet_currency /);
  });
});

describe('tenant isolation', () => {
  test("an instruction is stored for the caller's tenant and is not found for another tenant", async () => {
    const [pix] = MERCHANT_QRS;
    const instruction = instructionOf(await resolve(bodyFor(pix!, { wallet_currency: 'USD' })));
    const payout = createGrpcClient(PayoutService, {
      baseUrl: system.serviceUrls.payout,
      tls: system.grpcTls,
      timeoutMs: 5_000,
    });

    const own = await payout.getInstruction({
      tenantId: tenant.tenantId,
      instructionId: instruction.id as string,
    });
    expect(own.instruction).toMatchObject({
      id: instruction.id,
      tenantId: tenant.tenantId,
      amount: { currency: 'BRL', amountMinor: 1234n },
      quote: { tenantId: tenant.tenantId, id: (instruction.quote as { id: string }).id },
    });

    let refused: unknown;
    try {
      await payout.getInstruction({
        tenantId: otherTenant.tenantId,
        instructionId: instruction.id as string,
      });
    } catch (err) {
      refused = err;
    }
    expect(ConnectError.from(refused).code).toBe(Code.NotFound);
    expect(readErrorDetail(refused)).toMatchObject({ tag: 'NotFoundError' });
  });

  test("the other tenant's own resolve gets its own instruction", async () => {
    const [pix] = MERCHANT_QRS;
    const mine = instructionOf(await resolve(bodyFor(pix!)));
    const theirs = instructionOf(await resolve(bodyFor(pix!), otherTenant.apiKey));
    expect(theirs.id).not.toBe(mine.id);
    const payout = createGrpcClient(PayoutService, {
      baseUrl: system.serviceUrls.payout,
      tls: system.grpcTls,
      timeoutMs: 5_000,
    });
    const stored = await payout.getInstruction({
      tenantId: otherTenant.tenantId,
      instructionId: theirs.id as string,
    });
    expect(stored.instruction?.tenantId).toBe(otherTenant.tenantId);
  });
});
