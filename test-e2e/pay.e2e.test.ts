// POST /v1/execute and POST /v1/pay end to end (docs/api/idempotency.md "Execute and pay",
// "The Idempotency-Key"; docs/architecture.md "Transactions", "Rails and partners"): gateway,
// decoder, fx, payout, webhook and the partner simulator as separate processes against real
// PostgreSQL, Redis and Kafka. Payout submits to the simulator, which calls the gateway back with a
// signed callback; the simulator's /_sim/stats counts submissions per idempotency key (our
// transaction id), so "exactly one payout" is checked where the money would move.
import { randomBytes, randomUUID } from 'node:crypto';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { testInfra } from '@qr-payout/test-kit/infra';
import { MERCHANT_QRS, PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type System, startSystem, type TestTenant } from './harness';
import { expectErrorBody } from './support/error-body';
import { type ApiResponse, call, UUID } from './support/http';
import { PIX_E2E_ID } from './support/pay';

jest.setTimeout(180_000);

const IDEMPOTENCY_PREFIX = `e2e-idem:${randomBytes(4).toString('hex')}:`;

let system: System;
let tenant: TestTenant;
let redis: Redis;
let db: pg.Pool;

const PIX_12_34 = MERCHANT_QRS.find((qr) => qr.country === 'BR' && qr.amount !== undefined)!;

beforeAll(async () => {
  system = await startSystem({
    // A short wait and a short slow settlement, so "answers processing, then completes" takes seconds.
    gatewayEnv: { IDEMPOTENCY_KEY_PREFIX: IDEMPOTENCY_PREFIX },
    serviceEnv: { payout: { EXECUTE_WAIT_MS: '2000' } },
    partnerSimEnv: { PARTNER_SIM_SLOW_SETTLE_MS: '4000' },
  });
  tenant = await system.createTenant(`e2e-pay-${randomBytes(4).toString('hex')}`, 1_000);
  redis = new Redis(testInfra.redisUrl);
  db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
}, 240_000);

afterAll(async () => {
  if (redis) {
    const keys = await redis.keys(`${IDEMPOTENCY_PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
  await db?.end();
  await system?.stop();
}, 60_000);

function post(
  path: string,
  key: string | undefined,
  body: object,
  apiKey = tenant.apiKey,
): Promise<ApiResponse> {
  return call(system.gatewayUrl, path, {
    apiKey,
    body: JSON.stringify(body),
    contentType: 'application/json',
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
}

type Txn = {
  id: string;
  instructionId: string;
  status: string;
  result: { reference: string } | null;
  error: { code: string } | null;
};
const txnOf = (res: ApiResponse) => res.json?.transaction as Txn;

async function flushIdempotencyCache(): Promise<void> {
  const keys = await redis.keys(`${IDEMPOTENCY_PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
}

type SimStats = { submissions: Record<string, number>; callbacks: { delivered: number; failed: number } };

async function simStats(): Promise<SimStats> {
  return (await (await fetch(`${system.partnerSimUrl}/_sim/stats`)).json()) as SimStats;
}

async function partnerSubmissions(txnId: string): Promise<number> {
  return (await simStats()).submissions[txnId] ?? 0;
}

async function instructionCount(tenantId: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM payout.instructions WHERE tenant_id = $1',
    [tenantId],
  );
  return Number(rows[0]?.n);
}

async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('execute after resolve', () => {
  it('pays the instruction once: completed through the partner callback, the Pix end-to-end id as reference', async () => {
    const resolved = await post('/v1/resolve', undefined, { qr_string: PIX_12_34.qrString });
    expect(resolved.status).toBe(200);
    const instructionId = (resolved.json!.instruction as { id: string }).id;
    const key = randomUUID();
    const callbacksBefore = (await simStats()).callbacks;
    const executed = await post('/v1/execute', key, { instruction_id: instructionId, ...PAYER });
    expect(executed.status).toBe(200);
    expect(executed.json?.request_id).toBe(executed.headers.get('x-request-id'));
    const txn = txnOf(executed);
    expect(txn).toMatchObject({ instructionId, status: 'completed', rail: 'pix', error: null });
    expect(txn.result?.reference).toMatch(PIX_E2E_ID);
    const read = await call(system.gatewayUrl, `/v1/transactions/${txn.id}`, { apiKey: tenant.apiKey });
    expect(read.json?.transaction).toEqual(txn);
    expect(await partnerSubmissions(txn.id)).toBe(1);
    // Settled through the signed callback the gateway verified and forwarded (not by polling).
    const callbacksAfter = (await simStats()).callbacks;
    expect(callbacksAfter.delivered).toBeGreaterThan(callbacksBefore.delivered);
    expect(callbacksAfter.failed).toBe(callbacksBefore.failed);

    // The same key and body: the stored response; another key for the same instruction: refused.
    const replay = await post('/v1/execute', key, { instruction_id: instructionId, ...PAYER });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(txnOf(replay)).toEqual(txn);
    const conflict = await post('/v1/execute', key, {
      instruction_id: instructionId,
      ...PAYER,
      payer_name: 'Bruno',
    });
    expectErrorBody(conflict, 400, 'IdempotencyConflict', `${system.gatewayUrl}/docs`);
    const twice = await post('/v1/execute', randomUUID(), { instruction_id: instructionId, ...PAYER });
    expectErrorBody(twice, 409, 'InstructionAlreadyExecuted', `${system.gatewayUrl}/docs`);
    expect(twice.json?.transaction_id).toBe(txn.id);
    expect(await partnerSubmissions(txn.id)).toBe(1);
  });

  it('needs an Idempotency-Key and checks payer fields and callback_url', async () => {
    const docs = `${system.gatewayUrl}/docs`;
    expectErrorBody(
      await post('/v1/execute', undefined, { instruction_id: 'ins_x', ...PAYER }),
      400,
      'IdempotencyKeyMissing',
      docs,
    );
    expectErrorBody(
      await post('/v1/pay', undefined, { qr_string: PIX_12_34.qrString, ...PAYER }),
      400,
      'IdempotencyKeyMissing',
      docs,
    );
    const noTaxId = await post('/v1/pay', randomUUID(), {
      qr_string: PIX_12_34.qrString,
      payer_name: 'A',
      payer_account: '1',
    });
    expectErrorBody(noTaxId, 400, 'ValidationError', docs);
    const badCpf = await post('/v1/pay', randomUUID(), {
      qr_string: PIX_12_34.qrString,
      ...PAYER,
      payer_tax_id: '123.456.789-00',
      payer_country: 'BR',
    });
    expectErrorBody(badCpf, 400, 'ValidationError', docs);
    expect(badCpf.json?.message).toMatch(/payer_tax_id/);
    const badUrl = await post('/v1/pay', randomUUID(), {
      qr_string: PIX_12_34.qrString,
      ...PAYER,
      callback_url: 'ftp://hooks.example.com/x',
    });
    expectErrorBody(badUrl, 400, 'ValidationError', docs);
    expect(badUrl.json?.message).toMatch(/callback_url/);
  });
});

describe('money on every resource', () => {
  const get = (path: string, apiKey = tenant.apiKey) => call(system.gatewayUrl, path, { apiKey });

  it('the transaction of a pay, its read and the list show amount, currency, creditor, scheme and country', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const paid = await post('/v1/pay', randomUUID(), { qr_string: PIX_12_34.qrString, ...PAYER });
    expect(paid.status).toBe(200);
    const txn = paid.json?.transaction as Record<string, unknown> & { id: string; instructionId: string };
    const instruction = paid.json?.instruction as Record<string, unknown>;
    expect(txn).toMatchObject({
      amount: 12.34,
      currency: 'BRL',
      creditor: instruction.creditor as object,
      scheme: 'BR.PIX',
      country: 'BR',
      walletAmount: null,
      walletCurrency: null,
      quote: null,
    });
    const read = await get(`/v1/transactions/${txn.id}`);
    expect(read.json?.transaction).toEqual(txn);
    const listed = await get(`/v1/transactions?created_gte=${encodeURIComponent(since)}&limit=100`);
    expect(listed.status).toBe(200);
    const inList = (listed.json!.transactions as Array<{ id: string }>).find((t) => t.id === txn.id);
    expect(inList).toEqual(txn);

    // The instruction, as resolve and pay show it; another tenant's is 404.
    const ins = await get(`/v1/instructions/${txn.instructionId}`);
    expect([ins.status, ins.json?.instruction]).toEqual([200, instruction]);
    const other = await system.createTenant(`e2e-pay-other-${randomBytes(4).toString('hex')}`, 100);
    expectErrorBody(
      await get(`/v1/instructions/${txn.instructionId}`, other.apiKey),
      404,
      'NotFoundError',
      `${system.gatewayUrl}/docs`,
    );
    expectErrorBody(
      await get(`/v1/transactions/${txn.id}`, other.apiKey),
      404,
      'NotFoundError',
      `${system.gatewayUrl}/docs`,
    );
  });

  it('a pay with wallet_currency shows wallet_amount, wallet_currency and the quote', async () => {
    const paid = await post('/v1/pay', randomUUID(), {
      qr_string: PIX_WITHOUT_AMOUNT,
      amount: 25,
      wallet_currency: 'USD',
      ...PAYER,
    });
    expect(paid.status).toBe(200);
    const txn = paid.json?.transaction as { id: string; instructionId: string };
    const instruction = paid.json?.instruction as {
      wallet_amount: number;
      quote: { id: string; rate: string };
    };
    expect(txn).toMatchObject({
      amount: 25,
      currency: 'BRL',
      walletAmount: instruction.wallet_amount,
      walletCurrency: 'USD',
      quote: { id: instruction.quote.id, rate: instruction.quote.rate },
    });
    expect((await get(`/v1/transactions/${txn.id}`)).json?.transaction).toEqual(txn);
    const ins = await get(`/v1/instructions/${txn.instructionId}`);
    expect(ins.json?.instruction).toMatchObject({
      id: txn.instructionId,
      wallet_currency: 'USD',
      wallet_amount: instruction.wallet_amount,
      quote: { id: instruction.quote.id },
    });
    // Filtered by status and paged: every page newest first, the cursor carried over.
    const first = await get('/v1/transactions?status=completed&limit=1');
    expect(first.status).toBe(200);
    expect(first.json?.transactions).toHaveLength(1);
    const second = await get(`/v1/transactions?status=completed&limit=1&cursor=${first.json?.next_cursor}`);
    expect(second.status).toBe(200);
    const [a] = first.json!.transactions as Array<{ id: string; createdAt: string }>;
    const [b] = second.json!.transactions as Array<{ id: string; createdAt: string }>;
    expect(b!.id).not.toBe(a!.id);
    expect(b!.createdAt <= a!.createdAt).toBe(true);
    expectErrorBody(
      await get('/v1/transactions?limit=101'),
      400,
      'ValidationError',
      `${system.gatewayUrl}/docs`,
    );
  });
});

describe('partner callbacks', () => {
  it('refuses a callback without a valid Partner-Signature', async () => {
    const body = JSON.stringify({
      id: 'pp_forged',
      idempotency_key: 'txn_01JD0000000000000000000001',
      status: 'ACSC',
    });
    const t = Math.floor(Date.now() / 1000);
    const forged = await call(system.gatewayUrl, '/v1/partner/callbacks/pix', {
      body,
      contentType: 'application/json',
      headers: { 'partner-signature': `t=${t},v1=${'0'.repeat(64)}` },
    });
    expectErrorBody(forged, 401, 'AuthError', `${system.gatewayUrl}/docs`);
    const unsigned = await call(system.gatewayUrl, '/v1/partner/callbacks/pix', {
      body,
      contentType: 'application/json',
    });
    expectErrorBody(unsigned, 401, 'AuthError', `${system.gatewayUrl}/docs`);
  });
});

describe('limits', () => {
  it('a pay of 1e15 BRL is 422 AmountOutOfRange naming the limit; nothing is made; /v1/schemes shows the limits', async () => {
    const before = await instructionCount(tenant.tenantId);
    const res = await call(system.gatewayUrl, '/v1/pay', {
      apiKey: tenant.apiKey,
      // Written as the client would: 1e15 is an exact JSON number, above Pix's maximum.
      body: `{"qr_string":${JSON.stringify(PIX_WITHOUT_AMOUNT)},"amount":1e15,${JSON.stringify(PAYER).slice(1)}`,
      contentType: 'application/json',
      headers: { 'idempotency-key': randomUUID() },
    });
    expectErrorBody(res, 422, 'AmountOutOfRange', `${system.gatewayUrl}/docs`);
    expect(res.json?.message).toBe('The amount is above the maximum of 1000000.00 BRL for this scheme.');
    expect(await instructionCount(tenant.tenantId)).toBe(before);
    // Beyond exact representation: refused as sent, never paid as …98.
    const inexact = await call(system.gatewayUrl, '/v1/pay', {
      apiKey: tenant.apiKey,
      body: `{"qr_string":${JSON.stringify(PIX_WITHOUT_AMOUNT)},"amount":99999999999999.99,${JSON.stringify(PAYER).slice(1)}`,
      contentType: 'application/json',
      headers: { 'idempotency-key': randomUUID() },
    });
    expectErrorBody(inexact, 400, 'ValidationError', `${system.gatewayUrl}/docs`);
    // Refused as written by the JSON layer (docs/api/errors.md "Bodies we refuse"), never rounded.
    expect(inexact.json?.message).toMatch(
      /^amount is 99999999999999.99 as written, which reads back as 99999999999999.98/,
    );

    const schemes = await call(system.gatewayUrl, '/v1/schemes', { apiKey: tenant.apiKey });
    expect(schemes.status).toBe(200);
    type Limits = { id: string; min_amount: number; max_amount: number };
    const byId = Object.fromEntries(
      (schemes.json!.schemes as Limits[]).map((s) => [s.id, [s.min_amount, s.max_amount]]),
    );
    expect(byId).toMatchObject({
      'BR.PIX': [0.01, 1000000],
      'AR.CBU_CVU': [1, 50000000],
      'CO.BREB': [1, 100000000],
      'PE.YAPE': [0.01, 100000],
      'BO.EMVCO': [0.01, 1000000],
    });
  });
});

describe('pay', () => {
  it('resolves and executes in one call; a replay is the stored response, another body a conflict', async () => {
    const body = { qr_string: PIX_WITHOUT_AMOUNT, amount: 10, ...PAYER };
    const key = randomUUID();
    const paid = await post('/v1/pay', key, body);
    expect(paid.status).toBe(200);
    const txn = txnOf(paid);
    expect(txn.status).toBe('completed');
    expect(paid.json?.instruction).toMatchObject({
      id: txn.instructionId,
      amount: 10,
      currency: 'BRL',
      scheme: 'BR.PIX',
    });
    const replay = await post('/v1/pay', key, body);
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(txnOf(replay)).toEqual(txn);
    expectErrorBody(
      await post('/v1/pay', key, { ...body, amount: 11 }),
      400,
      'IdempotencyConflict',
      `${system.gatewayUrl}/docs`,
    );
    expect(await partnerSubmissions(txn.id)).toBe(1);
  });

  it('pays from another wallet currency: the quote is confirmed at execute and the payout completes', async () => {
    const paid = await post('/v1/pay', randomUUID(), {
      qr_string: PIX_WITHOUT_AMOUNT,
      amount: 25,
      wallet_currency: 'USD',
      ...PAYER,
    });
    expect(paid.status).toBe(200);
    expect(txnOf(paid).status).toBe('completed');
    const instruction = paid.json?.instruction as { quote?: { id: string; source_currency: string } };
    expect(instruction.quote).toMatchObject({ id: expect.stringMatching(/^quo_/), source_currency: 'USD' });
    expect(await partnerSubmissions(txnOf(paid).id)).toBe(1);
  });

  it('a partner rejection (amount ending in 51) is a 200 with a failed transaction', async () => {
    const paid = await post('/v1/pay', randomUUID(), {
      qr_string: PIX_WITHOUT_AMOUNT,
      amount: 20.51,
      ...PAYER,
    });
    expect(paid.status).toBe(200);
    expect(txnOf(paid)).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'AC03', partnerStatus: 'RJCT' },
    });
  });

  it('100 concurrent pays with one key and one body: one instruction, one transaction, one partner submission', async () => {
    const own = await system.createTenant(`e2e-pay-burst-${randomBytes(4).toString('hex')}`, 1_000);
    const key = randomUUID();
    const body = { qr_string: PIX_WITHOUT_AMOUNT, amount: 30, ...PAYER };
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => post('/v1/pay', key, body, own.apiKey)),
    );
    const byStatus = new Map<number, number>();
    for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
    // Every answer is the one response (first or replayed) or 409 IdempotencyInProgress.
    expect([...byStatus.keys()].sort()).toEqual(expect.arrayContaining([200]));
    expect([...byStatus.keys()].every((s) => s === 200 || s === 409)).toBe(true);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.json?._tag).toBe('IdempotencyInProgress');
    const ids = new Set(answers.filter((a) => a.status === 200).map((a) => txnOf(a).id));
    expect(ids.size).toBe(1);
    const [txnId] = [...ids] as [string];
    expect(await instructionCount(own.tenantId)).toBe(1);
    expect(await partnerSubmissions(txnId)).toBe(1);
    // After the burst, the same request is the stored response.
    const after = await post('/v1/pay', key, body, own.apiKey);
    expect([after.status, after.headers.get('idempotent-replayed'), txnOf(after).id]).toEqual([
      200,
      'true',
      txnId,
    ]);
  });

  it('Redis flushed between two identical pays: payout and the pay record decide, nothing runs twice', async () => {
    const own = await system.createTenant(`e2e-pay-flush-${randomBytes(4).toString('hex')}`, 1_000);
    const key = randomUUID();
    const body = { qr_string: PIX_WITHOUT_AMOUNT, amount: 40, ...PAYER };
    const first = await post('/v1/pay', key, body, own.apiKey);
    expect(first.status).toBe(200);
    await flushIdempotencyCache();
    const second = await post('/v1/pay', key, body, own.apiKey);
    expect([second.status, second.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(txnOf(second).id).toBe(txnOf(first).id);
    expect(second.json?.instruction).toEqual(first.json?.instruction);
    expect(await instructionCount(own.tenantId)).toBe(1);
    expect(await partnerSubmissions(txnOf(first).id)).toBe(1);

    // Another body after a flush: the pay record refuses it before resolving anything.
    await flushIdempotencyCache();
    const conflict = await post('/v1/pay', key, { ...body, amount: 41 }, own.apiKey);
    expectErrorBody(conflict, 400, 'IdempotencyConflict', `${system.gatewayUrl}/docs`);
    expect(await instructionCount(own.tenantId)).toBe(1);
  });

  it('without Redis at all (a gateway on per-process limits), 50 concurrent pays still make one payout', async () => {
    const noRedis = await system.startGateway({ RATE_LIMIT_BACKEND: 'memory', REDIS_URL: '' });
    const own = await system.createTenant(`e2e-pay-noredis-${randomBytes(4).toString('hex')}`, 1_000);
    const key = randomUUID();
    const body = { qr_string: PIX_WITHOUT_AMOUNT, amount: 60, ...PAYER };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(noRedis.url, '/v1/pay', {
          apiKey: own.apiKey,
          body: JSON.stringify(body),
          contentType: 'application/json',
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    // payout's durable record is the only guard here: every answer is the one transaction (or a
    // 409 from payout while the first is being written).
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    const ids = new Set(ok.map((a) => txnOf(a).id));
    expect(ids.size).toBe(1);
    const [txnId] = [...ids] as [string];
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM payout.transactions WHERE tenant_id = $1',
      [own.tenantId],
    );
    expect(Number(rows[0]?.n)).toBe(1);
    expect(await partnerSubmissions(txnId)).toBe(1);
  });

  it('a slow settlement (amount ending in 54) answers processing, then completes through the callback', async () => {
    const paid = await post('/v1/pay', randomUUID(), {
      qr_string: PIX_WITHOUT_AMOUNT,
      amount: 50.54,
      ...PAYER,
    });
    expect(paid.status).toBe(200);
    const txn = txnOf(paid);
    expect(txn.status).toBe('processing');
    const settled = await eventually(
      async () =>
        (await call(system.gatewayUrl, `/v1/transactions/${txn.id}`, { apiKey: tenant.apiKey })).json
          ?.transaction as Txn,
      (t) => t.status === 'completed',
      20_000,
    );
    expect(settled.status).toBe('completed');
    expect(settled.result?.reference).toMatch(PIX_E2E_ID);
    expect(UUID.test(String(paid.json?.request_id))).toBe(true);
  }, 60_000);
});

// docs/architecture.md "Single-use charges": a dynamic Pix charge made at the partner simulator
// (the receiving PSP) is paid once.
describe('a dynamic Pix charge is paid once', () => {
  const docs = () => `${system.gatewayUrl}/docs`;

  async function newCharge(valor: string): Promise<{ txid: string; qr_string: string }> {
    const created = await fetch(`${system.partnerSimUrl}/pix/v2/cob`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ valor, chave: '123e4567-e89b-42d3-a456-426614174000', nome: 'LOJA DINAMICA' }),
    });
    expect(created.status).toBe(201);
    return (await created.json()) as { txid: string; qr_string: string };
  }

  async function chargeStatus(txid: string): Promise<string> {
    const res = await fetch(`${system.partnerSimUrl}/pix/v2/cob/${txid}`);
    return ((await res.json()) as { status: string }).status;
  }

  async function resolvedId(qrString: string, apiKey = tenant.apiKey): Promise<string> {
    const resolved = await post('/v1/resolve', undefined, { qr_string: qrString }, apiKey);
    expect(resolved.status).toBe(200);
    return (resolved.json!.instruction as { id: string }).id;
  }

  it('paid once; another pay (other key, other tenant) is 409 ChargeAlreadyPaid; once concluded, resolve is 422', async () => {
    const other = await system.createTenant(`e2e-pay-charge-${randomBytes(4).toString('hex')}`, 1_000);
    // 54: the payment stays processing for a few seconds, so the charge is still ATIVA at its PSP
    // and the second pay gets past resolve to execute, where payout refuses it.
    const charge = await newCharge('31.54');
    const first = await post('/v1/pay', randomUUID(), { qr_string: charge.qr_string, ...PAYER });
    expect(first.status).toBe(200);
    const txn = txnOf(first);
    expect(txn.status).toBe('processing');

    const again = await post('/v1/pay', randomUUID(), { qr_string: charge.qr_string, ...PAYER });
    expectErrorBody(again, 409, 'ChargeAlreadyPaid', docs());
    expect(again.json?.message).toContain(txn.id);
    expect(again.json?.transaction_id).toBe(txn.id);
    const otherTenant = await post(
      '/v1/pay',
      randomUUID(),
      { qr_string: charge.qr_string, ...PAYER },
      other.apiKey,
    );
    expectErrorBody(otherTenant, 409, 'ChargeAlreadyPaid', docs());
    expect(otherTenant.json?.message).not.toMatch(/txn_/);
    expect(otherTenant.json).not.toHaveProperty('transaction_id');

    const settled = await eventually(
      async () =>
        (await call(system.gatewayUrl, `/v1/transactions/${txn.id}`, { apiKey: tenant.apiKey })).json
          ?.transaction as Txn,
      (t) => t.status === 'completed',
      20_000,
    );
    expect(settled.status).toBe('completed');
    expect(await partnerSubmissions(txn.id)).toBe(1);
    // The simulator, as the receiving PSP, concluded the charge it was paid for.
    expect(await chargeStatus(charge.txid)).toBe('CONCLUIDA');
    const resolvedAgain = await post('/v1/resolve', undefined, { qr_string: charge.qr_string });
    expectErrorBody(resolvedAgain, 422, 'QrDecodeError', docs());
    expect(resolvedAgain.json?.message).toMatch(/CONCLUIDA/);
    const paidAgain = await post(
      '/v1/pay',
      randomUUID(),
      { qr_string: charge.qr_string, ...PAYER },
      other.apiKey,
    );
    expectErrorBody(paidAgain, 422, 'QrDecodeError', docs());
  }, 60_000);

  it('instructions resolved before the payment: executing them afterwards is 409, whatever the key or tenant', async () => {
    const other = await system.createTenant(`e2e-pay-charge-${randomBytes(4).toString('hex')}`, 1_000);
    const charge = await newCharge('27.90');
    const [ours, oursAgain, theirs] = await Promise.all([
      resolvedId(charge.qr_string),
      resolvedId(charge.qr_string),
      resolvedId(charge.qr_string, other.apiKey),
    ]);
    const key = randomUUID();
    const paid = await post('/v1/execute', key, { instruction_id: ours, ...PAYER });
    expect(paid.status).toBe(200);
    const txn = txnOf(paid);
    expect(txn.status).toBe('completed');
    expect(txn.result?.reference).toMatch(PIX_E2E_ID);

    const second = await post('/v1/execute', randomUUID(), { instruction_id: oursAgain, ...PAYER });
    expectErrorBody(second, 409, 'ChargeAlreadyPaid', docs());
    expect(second.json?.message).toContain(txn.id);
    expect(second.json?.transaction_id).toBe(txn.id);
    const third = await post('/v1/execute', randomUUID(), { instruction_id: theirs, ...PAYER }, other.apiKey);
    expectErrorBody(third, 409, 'ChargeAlreadyPaid', docs());
    expect(third.json?.message).not.toMatch(/txn_/);
    expect(third.json).not.toHaveProperty('transaction_id');

    // The same key and body is still the replay of the one payment.
    const replay = await post('/v1/execute', key, { instruction_id: ours, ...PAYER });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(txnOf(replay)).toEqual(txn);
    expect(await partnerSubmissions(txn.id)).toBe(1);
    expect(await chargeStatus(charge.txid)).toBe('CONCLUIDA');
  });
});
