// The retry and idempotency layer against a real node:http server that answers what the test
// scripts (409/429/503, then 200): the client under test is the one integrators get, unmocked.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as receiver from '@qr-payout/webhook-receiver';
import { createClient, QrPayoutError, receiveWebhook, verifyWebhookSignature } from './index';

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
type Scripted = { status: number; headers?: Record<string, string>; body?: unknown; raw?: string };

const PAY_BODY = {
  qr_string: '000201...',
  amount: 25.9,
  payer_name: 'Juan Perez',
  payer_account: '0001-1234567',
  payer_tax_id: '20-12345678-6',
};
const TXN = { id: 'txn_01M86WVD9FPYXDBGGM8QA6YZHD', status: 'completed' };

function errorBody(tag: string, extra: Record<string, unknown> = {}) {
  return {
    _tag: tag,
    type: tag,
    message: `${tag} happened`,
    docs_url: `http://localhost/docs/errors#${tag}`,
    request_id: randomUUID(),
    ...extra,
  };
}

let server: http.Server;
let baseUrl: string;
let script: Scripted[];
let seen: Seen[];

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { method = '', url = '', headers } = req;
    seen.push({ method, url, headers, body: Buffer.concat(chunks).toString('utf8') });
    const next = script.shift() ?? { status: 500, body: errorBody('InternalError') };
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    res.end(next.raw ?? JSON.stringify(next.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  script = [];
  seen = [];
});

const fastRetries = { baseDelayMs: 5, maxDelayMs: 2_000 };

describe('retries', () => {
  it('retries pay on 409 IdempotencyInProgress, 429 and 503 with one Idempotency-Key, then returns the 200 body', async () => {
    const retries: Array<{ status: number; tag: string }> = [];
    const client = createClient({
      baseUrl,
      apiKey: 'key_test_0123456789',
      retry: fastRetries,
      onRetry: ({ status, tag }) => retries.push({ status, tag }),
    });
    script = [
      { status: 409, body: errorBody('IdempotencyInProgress') },
      { status: 429, headers: { 'retry-after': '0' }, body: errorBody('RateLimitError', { retryAfter: 1 }) },
      { status: 503, body: errorBody('ServiceUnavailable') },
      { status: 200, body: { transaction: TXN, request_id: randomUUID() } },
    ];
    const answer = await client.pay(PAY_BODY);
    expect(answer.transaction).toEqual(TXN);
    expect(seen).toHaveLength(4);
    expect(retries).toEqual([
      { status: 409, tag: 'IdempotencyInProgress' },
      { status: 429, tag: 'RateLimitError' },
      { status: 503, tag: 'ServiceUnavailable' },
    ]);
    const keys = new Set(seen.map((s) => s.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    for (const request of seen) {
      expect(request).toMatchObject({ method: 'POST', url: '/v1/pay' });
      expect(request.headers['x-api-key']).toBe('key_test_0123456789');
      expect(JSON.parse(request.body)).toEqual(PAY_BODY);
    }
  });

  it("uses the caller's Idempotency-Key, and a new one per call otherwise", async () => {
    const client = createClient({ baseUrl, apiKey: 'key_test_0123456789', retry: fastRetries });
    const ok = () => ({ status: 200, body: { transaction: TXN, request_id: randomUUID() } });
    script = [{ status: 503, body: errorBody('ServiceUnavailable') }, ok(), ok(), ok()];
    await client.execute(
      { instruction_id: 'ins_x', payer_name: 'a', payer_account: 'b', payer_tax_id: 'c' },
      { idempotencyKey: 'order-42' },
    );
    await client.pay(PAY_BODY);
    await client.pay(PAY_BODY);
    expect(seen.map((s) => s.headers['idempotency-key']).slice(0, 2)).toEqual(['order-42', 'order-42']);
    expect(seen[2]!.headers['idempotency-key']).not.toBe(seen[3]!.headers['idempotency-key']);
    expect(seen[0]!.url).toBe('/v1/execute');
  });

  it('waits what 429 asks: retry-after, else until x-ratelimit-reset', async () => {
    const delays: number[] = [];
    const client = createClient({
      baseUrl,
      apiKey: 'key_test_0123456789',
      retry: fastRetries,
      onRetry: ({ delayMs }) => delays.push(delayMs),
    });
    const resetAt = Math.ceil(Date.now() / 1000) + 1;
    script = [
      { status: 429, headers: { 'retry-after': '1' }, body: errorBody('RateLimitError', { retryAfter: 1 }) },
      { status: 429, headers: { 'x-ratelimit-reset': String(resetAt) }, body: errorBody('RateLimitError') },
      { status: 200, body: { schemes: [], request_id: randomUUID() } },
    ];
    const started = Date.now();
    await client.listSchemes();
    expect(delays[0]).toBe(1_000);
    expect(delays[1]).toBeGreaterThan(0);
    expect(delays[1]).toBeLessThanOrEqual(2_000);
    // The second wait ends at the window's reset (whole seconds).
    expect(Date.now()).toBeGreaterThanOrEqual(resetAt * 1000 - 5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('throws QrPayoutError with the error body once the attempts are spent', async () => {
    const client = createClient({
      baseUrl,
      apiKey: 'key_test_0123456789',
      retry: { ...fastRetries, maxAttempts: 3 },
    });
    const last = errorBody('ServiceUnavailable');
    script = [
      { status: 503, body: errorBody('ServiceUnavailable') },
      { status: 503, body: errorBody('ServiceUnavailable') },
      { status: 503, body: last },
    ];
    const err = await client.getTransaction(TXN.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QrPayoutError);
    expect(err).toMatchObject({
      status: 503,
      tag: 'ServiceUnavailable',
      message: last.message,
      docsUrl: last.docs_url,
      requestId: last.request_id,
      attempts: 3,
      body: last,
    });
    expect(seen).toHaveLength(3);
    expect(seen[0]!.url).toBe(`/v1/transactions/${TXN.id}`);
  });

  it('does not retry what the API does not say to retry', async () => {
    const client = createClient({ baseUrl, apiKey: 'key_test_0123456789', retry: fastRetries });
    const executed = errorBody('InstructionAlreadyExecuted', { transaction_id: TXN.id });
    script = [
      { status: 409, body: executed },
      { status: 400, body: errorBody('ValidationError') },
      { status: 502, raw: '<html>bad gateway</html>' },
      {
        status: 429,
        headers: { 'retry-after': '3600' },
        body: errorBody('RateLimitError', { retryAfter: 3600 }),
      },
    ];
    await expect(client.pay(PAY_BODY)).rejects.toMatchObject({
      status: 409,
      tag: 'InstructionAlreadyExecuted',
      transactionId: TXN.id,
      attempts: 1,
    });
    await expect(client.resolve({ qr_string: 'x' })).rejects.toMatchObject({
      status: 400,
      tag: 'ValidationError',
    });
    await expect(client.listSchemes()).rejects.toMatchObject({
      status: 502,
      tag: 'HttpError',
      body: undefined,
    });
    // Asked to wait longer than maxDelayMs: given back to the caller at once.
    await expect(client.listSchemes()).rejects.toMatchObject({ status: 429, retryAfter: 3600, attempts: 1 });
    expect(seen).toHaveLength(4);
  });

  it('stops waiting when the call is aborted', async () => {
    const client = createClient({ baseUrl, apiKey: 'key_test_0123456789', retry: { baseDelayMs: 10_000 } });
    script = [{ status: 503, headers: { 'retry-after': '5' }, body: errorBody('ServiceUnavailable') }];
    const controller = new AbortController();
    const pending = client.listSchemes({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(pending).rejects.toThrow('caller gave up');
    expect(seen).toHaveLength(1);
  });

  it('sends query parameters and paths as the document says', async () => {
    const client = createClient({ baseUrl: `${baseUrl}/`, apiKey: 'key_test_0123456789' });
    script = [{ status: 200, body: { transactions: [], next_cursor: null, request_id: randomUUID() } }];
    await client.listTransactions({ status: 'completed', limit: 5 });
    expect(seen[0]!.url).toBe('/v1/transactions?status=completed&limit=5');
  });
});

describe('webhook verification', () => {
  it('is the webhook-receiver package, re-exported', () => {
    expect(verifyWebhookSignature).toBe(receiver.verifyWebhookSignature);
    expect(receiveWebhook).toBe(receiver.receiveWebhook);
  });
});
