import net from 'node:net';
import { Code, ConnectError, serviceError } from '@qr-payout/platform/errors';
import { silentLogger } from '@qr-payout/platform/log';
import { RAILS } from '@qr-payout/platform/partner-protocol';
import type { FastifyInstance } from 'fastify';
import { DOCS_CSP } from '../docs/assets';
import { apiPageNames } from '../docs/doc-references';
import { NO_IDEMPOTENCY_CACHE } from '../idempotency/cache';
import { requestFingerprint } from '../idempotency/fingerprint';
import { createMemoryRateLimiter } from '../ratelimit/memory';
import type { AuthenticatedKey } from '../tenants/key-authentication';
import { buildPublicApp, type PublicAppDeps } from './app';
import { INVALID_KEY_MESSAGE, MISSING_KEY_MESSAGE } from './auth';
import { EXECUTE_OPERATION } from './routes/execute';

const GOOD_KEY = 'qrp_AbCdEfGh_0123456789abcdefghijklmnopqrstuv';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DOCS = 'http://localhost:8080/docs';

const SCHEMES = [
  {
    id: 'BR.PIX',
    name: 'Pix',
    country: 'BR',
    currency: 'BRL',
    rail: 'pix',
    qr_types: ['static', 'dynamic'],
    description: 'Brazilian instant payments.',
  },
];

const PAYER_IDENTITY = {
  fields: [{ field: 'payer_tax_id', required: true, description: 'CPF or CNPJ' }],
  documents: [],
  passport_format: '6 to 20 letters and digits',
};

function fakeTenants(limit = 100): PublicAppDeps['tenants'] & { calls: number } {
  const fake = {
    calls: 0,
    async authenticate(rawKey: string): Promise<AuthenticatedKey | null> {
      fake.calls++;
      return rawKey === GOOD_KEY
        ? { tenantId: 'ten_test', keyPrefix: 'qrp_AbCdEfGh', rateLimitPerMinute: limit }
        : null;
    },
  };
  return fake;
}

function build(overrides: Partial<PublicAppDeps> = {}): FastifyInstance {
  return buildPublicApp({
    tenants: fakeTenants(),
    limiter: createMemoryRateLimiter(),
    schemes: {
      getJson: async () => ({
        schemes: JSON.stringify(SCHEMES),
        payerIdentity: JSON.stringify(PAYER_IDENTITY),
      }),
    },
    decoder: {
      decode: async () => {
        throw new ConnectError(
          'decoder: SELECT * FROM secrets failed at /srv/decoder.ts:12',
          Code.Unimplemented,
        );
      },
    },
    currencies: {
      list: async () => [{ code: 'USD', minorUnits: 2 }],
    },
    payout: {
      createInstruction: async () => {
        throw new Error('not reached');
      },
      getTransaction: async () => {
        throw new Error('not reached');
      },
      listTransactions: async () => {
        throw new Error('not reached');
      },
      getInstruction: async () => {
        throw new Error('not reached');
      },
      executeInstruction: async () => {
        throw new Error('not reached');
      },
      applyPartnerCallback: async () => {
        throw new Error('not reached');
      },
      pay: async () => {
        throw new Error('not reached');
      },
    },
    payments: {
      idempotency: NO_IDEMPOTENCY_CACHE,
      settings: { get: async () => ({ executeWaitMs: 0, idempotencyKeyTtlMs: 86_400_000 }) },
      executeCallTimeoutMs: 1_000,
      partnerCallbackSecret: undefined,
    },
    webhook: {
      listEndpoints: async () => {
        throw new Error('not reached');
      },
      listDeliveries: async () => {
        throw new Error('not reached');
      },
      getDelivery: async () => {
        throw new Error('not reached');
      },
      replayDelivery: async () => {
        throw new Error('not reached');
      },
    },
    readiness: { notReadyReason: async () => undefined },
    logger: silentLogger(),
    publicDocsUrl: DOCS,
    authFailureLimit: 3,
    ...overrides,
  });
}

// Real requests over a socket on port 0: fastify.inject needs light-my-request, which loads the
// ESM-only `cookie` package that jest cannot require without --experimental-vm-modules.
type InjectOptions = { method?: string; url: string; headers?: Record<string, string>; payload?: string };
// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
type InjectResponse = { statusCode: number; headers: Record<string, string>; body: string; json(): any };

async function inject(app: FastifyInstance, opts: InjectOptions): Promise<InjectResponse> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}${opts.url}`, {
    method: opts.method ?? 'GET',
    headers: opts.headers ?? {},
    redirect: 'manual',
    ...(opts.payload !== undefined ? { body: opts.payload } : {}),
  });
  const body = await res.text();
  return {
    statusCode: res.status,
    headers: Object.fromEntries(res.headers),
    body,
    json: () => JSON.parse(body),
  };
}

function expectErrorBody(res: InjectResponse, status: number, tag: string) {
  expect(res.statusCode).toBe(status);
  const requestId = res.headers['x-request-id'];
  expect(requestId).toMatch(UUID);
  expect(res.json()).toEqual({
    _tag: tag,
    type: tag,
    message: expect.any(String),
    docs_url: `${DOCS}/errors#${tag}`,
    request_id: requestId,
    ...(tag === 'RateLimitError' ? { retryAfter: expect.any(Number) } : {}),
  });
}

describe('public app', () => {
  let app: FastifyInstance;
  beforeEach(() => {
    app = build();
  });
  afterEach(() => app.close());

  describe('authentication (docs/api/resources.md "Authentication")', () => {
    it('401 with a "missing" message when x-api-key is absent or empty', async () => {
      const cases: Record<string, string>[] = [{}, { 'x-api-key': '' }, { 'x-api-key': '   ' }];
      for (const headers of cases) {
        const res = await inject(app, { method: 'GET', url: '/v1/schemes', headers });
        expectErrorBody(res, 401, 'AuthError');
        expect(res.json().message).toBe(MISSING_KEY_MESSAGE);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });

    it('401 with an "invalid" message for a wrong key, and for an oversized one without a lookup', async () => {
      const tenants = fakeTenants();
      await app.close();
      app = build({ tenants, authFailureLimit: 100 });
      const wrong = await inject(app, {
        method: 'GET',
        url: '/v1/schemes',
        headers: { 'x-api-key': 'qrp_nope' },
      });
      expectErrorBody(wrong, 401, 'AuthError');
      expect(wrong.json().message).toBe(INVALID_KEY_MESSAGE);
      expect(tenants.calls).toBe(1);
      const oversized = await inject(app, {
        method: 'GET',
        url: '/v1/schemes',
        headers: { 'x-api-key': 'k'.repeat(257) },
      });
      expectErrorBody(oversized, 401, 'AuthError');
      expect(oversized.json().message).toBe(INVALID_KEY_MESSAGE);
      expect(tenants.calls).toBe(1);
    });

    it('limits failed attempts per address: over the budget a bad key is 429, a valid key still 200', async () => {
      const tenants = fakeTenants();
      await app.close();
      app = build({ tenants, authFailureLimit: 3 });
      for (let i = 0; i < 3; i++) {
        expect(
          (await inject(app, { url: '/v1/schemes', headers: { 'x-api-key': `wrong-${i}` } })).statusCode,
        ).toBe(401);
      }
      const blocked = await inject(app, { url: '/v1/schemes', headers: { 'x-api-key': 'wrong-4' } });
      expectErrorBody(blocked, 429, 'RateLimitError');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(blocked.json().retryAfter).toBe(Number(blocked.headers['retry-after']));
      // A key this app has never seen is verified and served, with its own rate-limit headers.
      const valid = await inject(app, { url: '/v1/schemes', headers: { 'x-api-key': GOOD_KEY } });
      expect(valid.statusCode).toBe(200);
      expect(valid.headers['x-ratelimit-limit']).toBe('100');
      expect(valid.headers['x-ratelimit-remaining']).toBe('99');
      expect(
        (await inject(app, { url: '/v1/schemes', headers: { 'x-api-key': 'wrong-5' } })).statusCode,
      ).toBe(429);
      // Missing keys do not count as failures and are told so.
      expect((await inject(app, { url: '/v1/schemes' })).statusCode).toBe(401);
    });
  });

  describe('GET /v1/schemes', () => {
    it('answers the catalogue with request_id, x-request-id and the rate-limit headers', async () => {
      const res = await inject(app, { url: '/v1/schemes', headers: { 'x-api-key': GOOD_KEY } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json();
      expect(body).toEqual({
        schemes: SCHEMES,
        payer_identity: PAYER_IDENTITY,
        request_id: res.headers['x-request-id'],
      });
      expect(body.request_id).toMatch(UUID);
      expect(res.headers['x-ratelimit-limit']).toBe('100');
      expect(res.headers['x-ratelimit-remaining']).toBe('99');
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=100;w=60');
      expect(res.headers.ratelimit).toMatch(/^"default";r=99;t=(59|60)$/);
    });

    it('gives every request its own id', async () => {
      const a = await inject(app, { url: '/v1/schemes', headers: { 'x-api-key': GOOD_KEY } });
      const b = await inject(app, {
        url: '/v1/schemes',
        headers: { 'x-api-key': GOOD_KEY, 'x-request-id': 'client-chosen' },
      });
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
      expect(b.headers['x-request-id']).toMatch(UUID);
    });

    it('429 RateLimitError with retryAfter and Retry-After beyond the key limit', async () => {
      await app.close();
      app = build({ tenants: fakeTenants(2) });
      for (let i = 0; i < 2; i++) {
        expect(
          (await inject(app, { url: '/v1/schemes', headers: { 'x-api-key': GOOD_KEY } })).statusCode,
        ).toBe(200);
      }
      const res = await inject(app, { url: '/v1/schemes', headers: { 'x-api-key': GOOD_KEY } });
      expectErrorBody(res, 429, 'RateLimitError');
      const retryAfter = res.json().retryAfter;
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(res.headers['retry-after']).toBe(String(retryAfter));
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(res.headers['x-ratelimit-limit']).toBe('2');
    });

    it('503 ServiceUnavailable when the decoder is down', async () => {
      await app.close();
      app = build({
        schemes: {
          getJson: async () => {
            throw new ConnectError('connect ECONNREFUSED', Code.Unavailable);
          },
        },
      });
      const res = await inject(app, { url: '/v1/schemes', headers: { 'x-api-key': GOOD_KEY } });
      expectErrorBody(res, 503, 'ServiceUnavailable');
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).not.toContain('ECONNREFUSED');
    });
  });

  describe('request bodies (POST /v1/resolve)', () => {
    const post = (payload: string | object, headers: Record<string, string> = {}) =>
      inject(app, {
        method: 'POST',
        url: '/v1/resolve',
        headers: { 'x-api-key': GOOD_KEY, 'content-type': 'application/json', ...headers },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });

    it('413 PayloadTooLarge over 64 KiB', async () => {
      const res = await post({ qr_string: 'x'.repeat(64 * 1024) });
      expectErrorBody(res, 413, 'PayloadTooLarge');
      expect(res.headers['x-ratelimit-limit']).toBe('100');
    });

    it('415 UnsupportedMediaType for a body that is not JSON', async () => {
      expectErrorBody(
        await post('qr_string=abc', { 'content-type': 'application/x-www-form-urlencoded' }),
        415,
        'UnsupportedMediaType',
      );
      expectErrorBody(await post('hello', { 'content-type': 'text/plain' }), 415, 'UnsupportedMediaType');
    });

    it('415 UnsupportedMediaType for JSON that says it is not UTF-8; UTF-8 said or unsaid is read', async () => {
      const body = JSON.stringify({ qr_string: 'x' });
      for (const charset of ['utf-16', 'UTF-16LE', '"iso-8859-1"']) {
        const res = await post(body, { 'content-type': `application/json; charset=${charset}` });
        expectErrorBody(res, 415, 'UnsupportedMediaType');
        expect(res.json().message).toMatch(/must be JSON in UTF-8/);
      }
      for (const contentType of [
        'application/json',
        'application/json; charset=utf-8',
        'application/json;charset=UTF-8',
      ])
        expect((await post(body, { 'content-type': contentType })).statusCode).not.toBe(415);
    });

    it('400 ValidationError for malformed JSON and for an empty body', async () => {
      const malformed = await post('{"qr_string": ');
      expectErrorBody(malformed, 400, 'ValidationError');
      expect(malformed.json().message).toMatch(/not valid JSON/);
      expectErrorBody(await post(''), 400, 'ValidationError');
    });

    it('400 ValidationError for __proto__ and constructor.prototype keys', async () => {
      for (const payload of [
        '{"qr_string":"a","__proto__":{"admin":true}}',
        '{"qr_string":"a","constructor":{"prototype":{"x":1}}}',
      ]) {
        const res = await post(payload);
        expectErrorBody(res, 400, 'ValidationError');
        expect(res.json().message).toMatch(/forbidden key/);
      }
      expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
    });

    it('400 ValidationError for a key twice in one object, and for an amount not kept as written', async () => {
      const twice = await post('{"qr_string":"a","amount":1,"amount":2}');
      expectErrorBody(twice, 400, 'ValidationError');
      expect(twice.json().message).toMatch(/"amount" more than once/);
      // Parsed, it would be 12.35: paying that is paying an amount the client did not write.
      const inexact = await post('{"qr_string":"a","amount":12.3499999999999999999}');
      expectErrorBody(inexact, 400, 'ValidationError');
      expect(inexact.json().message).toMatch(
        /^amount is 12.3499999999999999999 as written, which reads back as 12.35/,
      );
      // Thousands of levels overflowed the parser's reviver: a 500 the fuzz stage found.
      const deep = await post(`{"qr_string":"a","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`);
      expectErrorBody(deep, 400, 'ValidationError');
      expect(deep.json().message).toMatch(/more than 64 levels deep/);
    });

    it('400 ValidationError naming the field', async () => {
      const cases: [object, RegExp][] = [
        [{}, /^qr_string is required$/],
        [{ qr_string: '' }, /^qr_string /],
        [{ qr_string: 5 }, /^qr_string must be string$/],
        [{ qr_string: 'x'.repeat(4097) }, /^qr_string /],
        [{ qr_string: 'abc', wallet_currency: 'usd' }, /^wallet_currency /],
        // Zero or negative is malformed, not AmountOutOfRange (docs/api/resources.md "Money").
        [{ qr_string: 'abc', amount: -1 }, /^amount must be > 0$/],
        [{ qr_string: 'abc', amount: 0 }, /^amount must be > 0$/],
        [{ qr_string: 'abc', amount: '10' }, /^amount must be number or null$/],
        [{ qr_string: 'abc', wallet_currency: 5 }, /^wallet_currency must be string or null$/],
        [{ qr_string: 'abc', colour: 'red' }, /^colour is not a known field$/],
      ];
      for (const [payload, message] of cases) {
        const res = await post(payload);
        expectErrorBody(res, 400, 'ValidationError');
        expect(res.json().message).toMatch(message);
      }
    });

    it('authenticates before reading the body', async () => {
      const res = await inject(app, {
        method: 'POST',
        url: '/v1/resolve',
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      });
      expectErrorBody(res, 401, 'AuthError');
    });

    it('500 InternalError with nothing internal in it for an unexpected failure', async () => {
      const res = await post({ qr_string: '000201010211' });
      expectErrorBody(res, 500, 'InternalError');
      expect(res.body).not.toMatch(/SELECT|secrets|decoder\.ts|Unimplemented|stack/i);
    });

    it('maps a coded service error through the registry with its safe message', async () => {
      await app.close();
      app = build({
        decoder: {
          decode: async () => {
            throw serviceError('QrDecodeError', 'CRC mismatch: expected 1D3D, got 0000', {
              code: Code.InvalidArgument,
            });
          },
        },
      });
      const res = await post({ qr_string: '000201010211' });
      expectErrorBody(res, 422, 'QrDecodeError');
      expect(res.json().message).toBe('CRC mismatch: expected 1D3D, got 0000');
    });
  });

  describe('null for an optional request field is "not set" (docs/api/resources.md "Naming")', () => {
    const INSTRUCTION_ID = 'ins_01JD0000000000000000000001';
    const PAYER = { payer_name: 'Ana', payer_account: 'ACC-1', payer_tax_id: 'P123' };
    const NULL_PAYER_OPTIONALS = { payer_country: null, payer_id_type: null, callback_url: null };
    const post = (url: string, body: object) =>
      inject(app, {
        method: 'POST',
        url,
        headers: { 'x-api-key': GOOD_KEY, 'content-type': 'application/json', 'idempotency-key': 'k-1' },
        payload: JSON.stringify(body),
      });
    const undecodable = {
      decode: async () => {
        throw serviceError('QrDecodeError', 'CRC mismatch', { code: Code.InvalidArgument });
      },
    };

    it('resolve and pay take null wallet_currency and amount as absent: no 400, the QR is decoded', async () => {
      await app.close();
      app = build({ decoder: undecodable });
      const resolved = await post('/v1/resolve', { qr_string: '0002', wallet_currency: null, amount: null });
      expectErrorBody(resolved, 422, 'QrDecodeError');
      const paid = await post('/v1/pay', {
        qr_string: '0002',
        wallet_currency: null,
        amount: null,
        ...PAYER,
        ...NULL_PAYER_OPTIONALS,
      });
      expectErrorBody(paid, 422, 'QrDecodeError');
    });

    it('execute sends payout the payer without them, fingerprinted as the body without them', async () => {
      await app.close();
      const sent: unknown[] = [];
      app = build({
        // Only execute is reached.
        payout: {
          executeInstruction: async (request: unknown) => {
            sent.push(request);
            throw serviceError('NotFoundError', 'instruction not found', { code: Code.NotFound });
          },
        } as unknown as PublicAppDeps['payout'],
      });
      const body = { instruction_id: INSTRUCTION_ID, ...PAYER };
      expectErrorBody(await post('/v1/execute', { ...body, ...NULL_PAYER_OPTIONALS }), 404, 'NotFoundError');
      expectErrorBody(await post('/v1/execute', body), 404, 'NotFoundError');
      const [withNulls, without] = sent as Record<string, unknown>[];
      expect(withNulls).toMatchObject({
        payer: { name: 'Ana', account: 'ACC-1', taxId: 'P123' },
        callbackUrl: '',
        requestFingerprint: requestFingerprint(EXECUTE_OPERATION, body),
      });
      expect(withNulls!['payer']).toEqual({ name: 'Ana', account: 'ACC-1', taxId: 'P123' });
      expect(withNulls).toEqual(without);
    });

    it('a required field is still required: null is not a value for it', async () => {
      const res = await post('/v1/execute', { instruction_id: INSTRUCTION_ID, ...PAYER, payer_tax_id: null });
      expectErrorBody(res, 400, 'ValidationError');
      expect(res.json().message).toBe('payer_tax_id must be string');
    });
  });

  describe('unknown routes, docs and probes', () => {
    it('404 NotFoundError for unknown paths, with x-request-id', async () => {
      expectErrorBody(await inject(app, { url: '/v1/nope' }), 404, 'NotFoundError');
      expectErrorBody(await inject(app, { url: '/docs/assets/..%2Fpackage.json' }), 404, 'NotFoundError');
    });

    it('405 MethodNotAllowed with the Allow list for a method a path does not have', async () => {
      const deleteSchemes = await inject(app, { method: 'DELETE', url: '/v1/schemes' });
      expectErrorBody(deleteSchemes, 405, 'MethodNotAllowed');
      expect(deleteSchemes.headers.allow).toBe('GET, HEAD');
      const getPay = await inject(app, { url: '/v1/pay' });
      expectErrorBody(getPay, 405, 'MethodNotAllowed');
      expect(getPay.headers.allow).toBe('POST');
      const putTransaction = await inject(app, {
        method: 'PUT',
        url: '/v1/transactions/txn_01JD8Z5Q9X8C7V6B5N4M3K2J1H',
      });
      expectErrorBody(putTransaction, 405, 'MethodNotAllowed');
      expect(putTransaction.headers.allow).toBe('GET, HEAD');
      // Fastify refuses a QUERY without a Content-Type before any handler: still the 405 it is.
      const queryPay = await inject(app, { method: 'QUERY' as 'GET', url: '/v1/pay' });
      expectErrorBody(queryPay, 405, 'MethodNotAllowed');
      expect(queryPay.headers.allow).toBe('POST');
    });

    it("partner callbacks exist for the partner protocol's rails only (404 for any other)", async () => {
      const postCallback = (rail: string) =>
        inject(app, {
          method: 'POST',
          url: `/v1/partner/callbacks/${rail}`,
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        });
      // No PARTNER_CALLBACK_SECRET here: a rail with callbacks answers 503, not 404.
      for (const rail of RAILS) expectErrorBody(await postCallback(rail), 503, 'ServiceUnavailable');
      expectErrorBody(await postCallback('swift'), 404, 'NotFoundError');
    });

    it('serves the OpenAPI document, the reference page, its local assets and the error catalogue', async () => {
      const doc = await inject(app, { url: '/v1/openapi.json' });
      expect(doc.statusCode).toBe(200);
      expect(doc.json().openapi).toBe('3.1.0');
      const page = await inject(app, { url: '/docs' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Authorize');
      // The base URL npm start prints leads to the reference.
      const root = await inject(app, { url: '/' });
      expect([root.statusCode, root.headers.location]).toEqual([302, '/docs']);
      expect(page.body).not.toMatch(/https?:\/\/(?!localhost)/);
      const script = await inject(app, { url: '/docs/assets/swagger-ui-bundle.js' });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/javascript/);
      const errors = await inject(app, { url: '/docs/errors' });
      expect(errors.statusCode).toBe(200);
      for (const tag of ['AuthError', 'RateLimitError', 'QrDecodeError', 'InternalError']) {
        expect(errors.body).toContain(`id="${tag}"`);
      }
    });

    it('serves every docs/api page under the docs CSP, links it from /docs and from the document', async () => {
      const index = await inject(app, { url: '/docs/api' });
      expect(index.statusCode).toBe(200);
      expect(index.headers['content-security-policy']).toBe(DOCS_CSP);
      expect((await inject(app, { url: '/docs' })).body).toContain('href="/docs/api"');
      for (const page of apiPageNames()) {
        expect(index.body).toContain(`href="/docs/api/${page}"`);
        const res = await inject(app, { url: `/docs/api/${page}` });
        expect([page, res.statusCode, res.headers['content-type']]).toEqual([
          page,
          200,
          'text/html; charset=utf-8',
        ]);
        expect(res.headers['content-security-policy']).toBe(DOCS_CSP);
        expect(res.body).not.toContain('<script');
      }
      const unknown = await inject(app, { url: '/docs/api/nope' });
      expectErrorBody(unknown, 404, 'NotFoundError');
      expect(unknown.json().message).toContain('/docs/api');
      expectErrorBody(await inject(app, { url: '/docs/api/README' }), 404, 'NotFoundError');
      // The served document links its references; Swagger UI renders the Markdown links.
      const doc = (await inject(app, { url: '/v1/openapi.json' })).json();
      const payments = doc.tags.find((t: { name: string }) => t.name === 'Payments');
      expect(payments.description).toContain('[docs/api/idempotency.md](/docs/api/idempotency)');
    });

    it('serves the samples page under the docs CSP, linked from /docs and /docs/api', async () => {
      const samples = await inject(app, { url: '/docs/samples' });
      expect([samples.statusCode, samples.headers['content-type']]).toEqual([
        200,
        'text/html; charset=utf-8',
      ]);
      expect(samples.headers['content-security-policy']).toBe(DOCS_CSP);
      expect(samples.body).toContain('<section id="pay">');
      expect(samples.body).not.toContain('<script');
      expect((await inject(app, { url: '/docs' })).body).toContain('href="/docs/samples"');
      expect((await inject(app, { url: '/docs/api' })).body).toContain('href="/docs/samples"');
    });

    it("groups partner callbacks and probes apart from the integrators' operations", async () => {
      const doc = (await inject(app, { url: '/v1/openapi.json' })).json();
      expect(doc.paths['/v1/partner/callbacks/{rail}'].post.tags).toEqual(['Partners']);
      expect(doc.paths['/healthz'].get.tags).toEqual(['Operations']);
      expect(doc.paths['/readyz'].get.tags).toEqual(['Operations']);
      expect(doc.tags.map((t: { name: string }) => t.name).slice(-2)).toEqual(['Partners', 'Operations']);
    });

    it('/healthz is 200; /readyz is 503 ServiceUnavailable when not ready', async () => {
      expect((await inject(app, { url: '/healthz' })).json()).toEqual({ status: 'ok' });
      expect((await inject(app, { url: '/readyz' })).statusCode).toBe(200);
      await app.close();
      app = build({ readiness: { notReadyReason: async () => 'shutting down' } });
      expectErrorBody(await inject(app, { url: '/readyz' }), 503, 'ServiceUnavailable');
    });
  });
});

describe("requests Node's HTTP parser refuses (over a real socket)", () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = build();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  /** Writes `head` (request line and headers, CRLF-separated) and reads the whole answer. */
  function exchange(head: string): Promise<InjectResponse> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n`));
      let raw = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk) => {
        raw += chunk;
      });
      socket.on('error', () => {}); // the server closes after answering
      socket.on('close', () => {
        const [headText = '', body = ''] = raw.split('\r\n\r\n');
        const [statusLine = '', ...lines] = headText.split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
        );
        if (statusLine === '') reject(new Error('no answer'));
        else
          resolve({
            statusCode: Number(statusLine.split(' ')[1]),
            headers,
            body,
            json: () => JSON.parse(body),
          });
      });
    });
  }

  it('headers larger than Node reads: 400 ValidationError in the error shape (was 431 in Fastify shape)', async () => {
    const res = await exchange(`GET /v1/schemes HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(100 * 1024)}`);
    expectErrorBody(res, 400, 'ValidationError');
    expect(res.json().message).toMatch(/headers are larger/);
  });

  it('a DEL byte in a header value: 400 ValidationError in the error shape', async () => {
    const res = await exchange(`GET /v1/schemes HTTP/1.1\r\nHost: x\r\nx-api-key: qrp_\x7f`);
    expectErrorBody(res, 400, 'ValidationError');
  });

  it('a request without Host reaches the routes and their answers', async () => {
    const res = await exchange('GET /v1/schemes HTTP/1.1\r\nConnection: close');
    expectErrorBody(res, 401, 'AuthError');
  });
});
