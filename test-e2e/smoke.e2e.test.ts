// End-to-end smoke: the gateway and every service as separate processes against the real
// PostgreSQL, Redis and Kafka (test-e2e/README.md): authentication, errors and limits
// (docs/api/resources.md "Authentication"; docs/api/errors.md; docs/api/rate-limits.md).
import { randomBytes } from 'node:crypto';
import { committedOpenApiDocument, withoutServers } from '@qr-payout/test-kit/openapi';
import { MERCHANT_QRS } from '@qr-payout/test-kit/qrs';
import { freePort, type System, startSystem, type TestTenant } from './harness';
import { expectErrorBody } from './support/error-body';
import { startGarbageUpstream } from './support/garbage-upstream';
import { call, UUID } from './support/http';

jest.setTimeout(120_000);

const uniqueName = (label: string) => `e2e-${label}-${randomBytes(4).toString('hex')}`;

let system: System;
/** Made with `payoutctl tenant create`, so the CLI is covered end to end. */
let tenant: TestTenant;

beforeAll(async () => {
  system = await startSystem();
  tenant = await system.createTenantWithCli(uniqueName('cli'));
}, 240_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

const docsBase = () => `${system.gatewayUrl}/docs`;

describe('operator onboarding', () => {
  test('a tenant created by payoutctl gets a tenant id, a key that works and a signing secret', async () => {
    expect(tenant.tenantId).toMatch(/^ten_/);
    expect(tenant.signingSecret.length).toBeGreaterThanOrEqual(16);
    const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey: tenant.apiKey });
    expect(res.status).toBe(200);
  });
});

describe('wallet currencies and the API reference', () => {
  test("GET /v1/fx/currencies lists fx's rate table, and resolve takes exactly those codes", async () => {
    const res = await call(system.gatewayUrl, '/v1/fx/currencies', { apiKey: tenant.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    const currencies = res.json!.currencies as { code: string; minor_units: number }[];
    // fx's default table (services/fx/README.md "Rate table").
    expect(currencies.map((c) => c.code)).toEqual(['ARS', 'BOB', 'BRL', 'COP', 'EUR', 'PEN', 'USD']);
    expect(currencies.every((c) => c.minor_units === 2)).toBe(true);
    const unquoted = await call(system.gatewayUrl, '/v1/resolve', {
      apiKey: tenant.apiKey,
      method: 'POST',
      contentType: 'application/json',
      body: JSON.stringify({ qr_string: MERCHANT_QRS[0]!.qrString, wallet_currency: 'JPY' }),
    });
    // fx, the one owner of the quoted currencies, refuses it (docs/api/fx-and-confidence.md).
    expectErrorBody(unquoted, 400, 'ValidationError', docsBase());
    expect(unquoted.json!.message).toBe(
      'wallet_currency JPY is not a currency we quote from; GET /v1/fx/currencies lists those we do.',
    );
  });

  test("the OpenAPI document is the committed one, the sandbox's too (sandbox/test): only servers differ", async () => {
    const res = await call(system.gatewayUrl, '/v1/openapi.json');
    expect(withoutServers(res.json!)).toEqual(withoutServers(committedOpenApiDocument()));
  });

  test('the OpenAPI document names this gateway as its server', async () => {
    const res = await call(system.gatewayUrl, '/v1/openapi.json');
    expect(res.json!.servers).toEqual([
      expect.objectContaining({ url: '/' }),
      expect.objectContaining({ url: system.gatewayUrl }),
    ]);
  });
});

describe('401 AuthError (docs/api/resources.md "Authentication")', () => {
  test.each([
    ['missing', undefined, /missing/i],
    ['empty', '', /missing/i],
    ['wrong', `qrp_${randomBytes(4).toString('hex')}_${randomBytes(24).toString('base64url')}`, /invalid/i],
    ['oversized', `qrp_${'k'.repeat(2048)}`, /invalid/i],
  ])('%s key', async (_case, apiKey, messagePattern) => {
    const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey });
    expectErrorBody(res, 401, 'AuthError', docsBase());
    expect(res.json!.message).toMatch(messagePattern);
    // A refused key is not a rate-limited key: no budget is reported for it.
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  test('the refusal does not echo the key', async () => {
    const wrongKey = `qrp_${randomBytes(4).toString('hex')}_${randomBytes(24).toString('base64url')}`;
    const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey: wrongKey });
    expect(res.status).toBe(401);
    expect(res.text).not.toContain(wrongKey);
  });
});

describe('x-request-id on every response (docs/api/resources.md "Request ids")', () => {
  test('public, authenticated, refused and unknown routes each carry a fresh UUID', async () => {
    const responses = await Promise.all([
      call(system.gatewayUrl, '/healthz'),
      call(system.gatewayUrl, '/readyz'),
      call(system.gatewayUrl, '/v1/openapi.json'),
      call(system.gatewayUrl, '/docs'),
      call(system.gatewayUrl, '/docs/errors'),
      call(system.gatewayUrl, '/docs/api'),
      call(system.gatewayUrl, '/v1/schemes', { apiKey: tenant.apiKey }),
      call(system.gatewayUrl, '/v1/schemes'),
      call(system.gatewayUrl, '/v1/no-such-route', { apiKey: tenant.apiKey }),
      call(system.gatewayUrl, '/v1/resolve', {
        apiKey: tenant.apiKey,
        body: '{',
        contentType: 'application/json',
      }),
    ]);
    const ids = responses.map((res) => res.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    expect(responses.slice(0, 7).map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
  });

  test('a success body carries request_id equal to the header', async () => {
    const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey: tenant.apiKey });
    expect(res.status).toBe(200);
    expect(res.json!.request_id).toBe(res.headers.get('x-request-id'));
  });
});

describe('429 RateLimitError (docs/api/errors.md "Error names"; docs/api/rate-limits.md "Per key")', () => {
  test('100 requests in a minute pass with a falling budget, the 101st is refused with the headers', async () => {
    const limited = await system.createTenant(uniqueName('ratelimit'));
    const nowSeconds = Math.floor(Date.now() / 1000);
    const remaining: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey: limited.apiKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('100');
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(Number.isInteger(reset)).toBe(true);
      expect(reset).toBeGreaterThanOrEqual(nowSeconds);
      expect(reset).toBeLessThanOrEqual(nowSeconds + 120);
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));

    const refused = await call(system.gatewayUrl, '/v1/schemes', { apiKey: limited.apiKey });
    expectErrorBody(refused, 429, 'RateLimitError', docsBase());
    const retryAfter = refused.json!.retryAfter;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('retry-after')).toBe(String(retryAfter));
    expect(refused.headers.get('x-ratelimit-limit')).toBe('100');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(refused.headers.get('ratelimit-policy')).toMatch(/q=100\b/);
    expect(refused.headers.get('ratelimit-policy')).toMatch(/w=60\b/);
    expect(refused.headers.get('ratelimit')).toMatch(/r=0\b/);
    expect(refused.headers.get('ratelimit')).toMatch(/t=\d+/);

    // Tenant isolation: another tenant's key has its own untouched budget while this one is refused.
    const other = await system.createTenant(uniqueName('neighbour'));
    const neighbour = await call(system.gatewayUrl, '/v1/schemes', { apiKey: other.apiKey });
    expect(neighbour.status).toBe(200);
    expect(neighbour.headers.get('x-ratelimit-remaining')).toBe('99');
    const stillRefused = await call(system.gatewayUrl, '/v1/schemes', { apiKey: limited.apiKey });
    expect(stillRefused.status).toBe(429);
  });

  test("an operator's per-tenant override sets the key's limit", async () => {
    const generous = await system.createTenant(uniqueName('override'), 250);
    const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey: generous.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('250');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('249');
  });
});

describe('tenant isolation (docs/api/resources.md "Authentication")', () => {
  test("a tenant never sees another tenant's webhook endpoints, and another's ids are 404", async () => {
    const a = await system.createTenant(uniqueName('isolation-a'));
    const b = await system.createTenant(uniqueName('isolation-b'));
    const created = await system.admin.createWebhookEndpoint({
      endpoint: { tenantId: a.tenantId, url: 'https://hooks.example.com/a', eventTypes: ['*'] },
    });
    const endpointId = created.endpoint?.id ?? '';
    expect(endpointId).toMatch(/^whe_/);

    // Through the gateway, over gRPC to the webhook service, scoped by the key's tenant.
    const listFor = async (apiKey: string) => {
      const res = await call(system.gatewayUrl, '/v1/webhook-endpoints', { apiKey });
      expect(res.status).toBe(200);
      return ((res.json?.endpoints ?? []) as { id: string }[]).map((e) => e.id);
    };
    expect(await listFor(a.apiKey)).toEqual([endpointId]);
    expect(await listFor(b.apiKey)).toEqual([]);

    // No transaction can be created through the API before execute exists: an id outside
    // the caller's tenant answers exactly like an unknown one.
    const res = await call(system.gatewayUrl, `/v1/transactions/txn_${randomBytes(13).toString('hex')}`, {
      apiKey: b.apiKey,
    });
    expectErrorBody(res, 404, 'NotFoundError', docsBase());
  });
});

describe('GET /v1/schemes through gRPC', () => {
  test('lists the schemes of the five countries from the decoder', async () => {
    const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey: tenant.apiKey });
    expect(res.status).toBe(200);
    const schemes = res.json!.schemes as Array<Record<string, unknown>>;
    expect(Array.isArray(schemes)).toBe(true);
    expect(new Set(schemes.map((s) => s.country))).toEqual(new Set(['AR', 'BO', 'BR', 'CO', 'PE']));
    for (const scheme of schemes) expect(typeof scheme.id).toBe('string');
  });

  test('the list comes from the decoder over gRPC: 503 before it is up, 200 once it is', async () => {
    const decoderPort = await freePort();
    const gateway = await system.startGateway({
      DECODER_URL: `http://127.0.0.1:${decoderPort}`,
      SCHEMES_CACHE_TTL_MS: '0',
    });
    try {
      const down = await call(gateway.url, '/v1/schemes', { apiKey: tenant.apiKey });
      expectErrorBody(down, 503, 'ServiceUnavailable', `${gateway.url}/docs`);
      expect(down.headers.get('retry-after')).toMatch(/^\d+$/);

      const decoder = await system.startService('decoder', { GRPC_PORT: String(decoderPort) });
      const up = await call(gateway.url, '/v1/schemes', { apiKey: tenant.apiKey });
      expect(up.status).toBe(200);
      const reference = await call(system.gatewayUrl, '/v1/schemes', { apiKey: tenant.apiKey });
      expect(up.json!.schemes).toEqual(reference.json!.schemes);

      // Once loaded, the gateway keeps serving its last list while the decoder is away
      // (stale-on-error scheme cache, docs/api/resources.md "The scheme catalogue").
      await decoder.process.stop();
      const stale = await call(gateway.url, '/v1/schemes', { apiKey: tenant.apiKey });
      expect(stale.status).toBe(200);
      expect(stale.json!.schemes).toEqual(reference.json!.schemes);
    } finally {
      await gateway.process.stop();
    }
  });
});

describe('error bodies (docs/api/errors.md "The error body")', () => {
  const resolve = (body: string, contentType = 'application/json') =>
    call(system.gatewayUrl, '/v1/resolve', { apiKey: tenant.apiKey, body, contentType });

  test('400 ValidationError for malformed JSON', async () => {
    expectErrorBody(await resolve('{"qr_string": '), 400, 'ValidationError', docsBase());
  });

  test('400 ValidationError naming qr_string when it is missing', async () => {
    const res = await resolve('{}');
    expectErrorBody(res, 400, 'ValidationError', docsBase());
    expect(res.json!.message).toContain('qr_string');
  });

  test('400 ValidationError for a __proto__ key', async () => {
    expectErrorBody(
      await resolve('{"qr_string":"x","__proto__":{"admin":true}}'),
      400,
      'ValidationError',
      docsBase(),
    );
  });

  test.each([
    ['with a key', true],
    ['without a key', false],
  ])('404 NotFoundError for an unknown route %s', async (_label, withKey) => {
    const apiKey = withKey ? tenant.apiKey : undefined;
    expectErrorBody(
      await call(system.gatewayUrl, '/v1/unknown-route', { apiKey }),
      404,
      'NotFoundError',
      docsBase(),
    );
  });

  test('405 MethodNotAllowed with Allow for a method a known path lacks; 404 for an unknown path', async () => {
    const res = await call(system.gatewayUrl, '/v1/schemes', { method: 'DELETE', apiKey: tenant.apiKey });
    expectErrorBody(res, 405, 'MethodNotAllowed', docsBase());
    expect(res.headers.get('allow')).toMatch(/GET/);
    const unknown = await call(system.gatewayUrl, '/v1/nothing-here', { apiKey: tenant.apiKey });
    expectErrorBody(unknown, 404, 'NotFoundError', docsBase());
  });

  test('413 PayloadTooLarge for a 65 KiB body', async () => {
    const body = JSON.stringify({ qr_string: 'x'.repeat(65 * 1024) });
    expectErrorBody(await resolve(body), 413, 'PayloadTooLarge', docsBase());
  });

  test('415 UnsupportedMediaType for a text/plain body', async () => {
    expectErrorBody(await resolve('qr_string=abc', 'text/plain'), 415, 'UnsupportedMediaType', docsBase());
  });

  test('500 InternalError with nothing internal when the upstream answers garbage', async () => {
    // It speaks TLS with a certificate of the run's CA, so the gateway's mTLS client reaches the
    // garbage itself. (A gateway in cleartext instead could not reach payout, whose rail limits
    // /v1/schemes also reads: which of the two failures it answered depended on timing.)
    const upstream = await startGarbageUpstream(system.issueTls('garbage-upstream', { ip: ['127.0.0.1'] }));
    try {
      const gateway = await system.startGateway({ DECODER_URL: upstream.url, SCHEMES_CACHE_TTL_MS: '0' });
      const res = await call(gateway.url, '/v1/schemes', { apiKey: tenant.apiKey });
      expectErrorBody(res, 500, 'InternalError', `${gateway.url}/docs`);
      const message = res.json!.message as string;
      expect(message).not.toContain(upstream.marker);
      expect(message).not.toContain(new URL(upstream.url).port);
      expect(message).not.toMatch(/content.?type|grpc|http\/?2|ECONN|stack|\bat \S+ \(|\.ts\b/i);
      expect(res.text).not.toContain(upstream.marker);
      await gateway.process.stop();
    } finally {
      await upstream.close();
    }
  });

  test('every docs_url anchor exists on the error catalogue page', async () => {
    const page = await call(system.gatewayUrl, '/docs/errors');
    expect(page.status).toBe(200);
    const tags = [
      'AuthError',
      'RateLimitError',
      'ValidationError',
      'NotFoundError',
      'PayloadTooLarge',
      'UnsupportedMediaType',
      'InternalError',
      'ServiceUnavailable',
    ];
    for (const tag of tags) expect(page.text).toContain(`id="${tag}"`);
  });
});

describe('shutdown', () => {
  // Last in the file: it stops the system (afterAll's stop is then a no-op).
  test('every process exits 0 on SIGTERM within the deadline', async () => {
    const exits = await system.stop();
    expect(exits.length).toBeGreaterThanOrEqual(5);
    expect(exits.filter((p) => p.exit !== 0)).toEqual([]);
  });
});
