import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '@qr-payout/platform/log';
import { dynamicPixQr, PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import type pg from 'pg';
import type { RunningGateway } from '../src/index';
import { keyPrefix } from '../src/tenants/keys';
import { createTenantStore } from '../src/tenants/store';
import { type HttpResponse, request, seedTenant, startTestGateway, type TestGateway, UUID } from './support';

// The whole gateway as startGateway builds it: real PostgreSQL (migrated on start, own schema),
// real Redis (own key prefix), the real decoder over gRPC, free ports.

let world: TestGateway;
let gateway: RunningGateway;
let pool: pg.Pool;
let base: string;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const logger = createLogger({
    service: 'gateway',
    level: 'info',
    destination: new Writable({
      write(chunk, _enc, cb) {
        logLines.push(JSON.parse(chunk.toString()));
        cb();
      },
    }),
  });
  world = await startTestGateway({ schemaPrefix: 'gw_int', logger });
  ({ gateway, pool, base } = world);
});

afterAll(async () => {
  await world?.stop();
});

describe('gateway (startGateway)', () => {
  it('serves the decoder catalogue of the five countries to a stored key, with rate-limit headers', async () => {
    const { apiKey, tenantId } = await seedTenant(pool);
    const res = await request(base, '/v1/schemes', { headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
    expect(body.request_id).toMatch(UUID);
    expect(new Set(body.schemes.map((s: { country: string }) => s.country))).toEqual(
      new Set(['AR', 'BR', 'BO', 'CO', 'PE']),
    );
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=100;w=60');
    // One access line, with the request id and tenant, never the key.
    const line = logLines.find((l) => l['request_id'] === body.request_id && l['msg'] === 'request');
    expect(line).toMatchObject({ status: 200, tenant_id: tenantId, route: '/v1/schemes' });
    expect(JSON.stringify(logLines)).not.toContain(apiKey);
  });

  it("applies the tenant's rate-limit override and answers 429 with retryAfter beyond it", async () => {
    const { apiKey } = await seedTenant(pool, { rateLimitPerMinute: 3 });
    const statuses = [];
    let last: HttpResponse | undefined;
    for (let i = 0; i < 4; i++) {
      last = await request(base, '/v1/schemes', { headers: { 'x-api-key': apiKey } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const body = last!.json();
    expect(body._tag).toBe('RateLimitError');
    expect(body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('retry-after')).toBe(String(body.retryAfter));
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
  });

  it('401 for an unknown key and for a revoked one', async () => {
    const unknown = await request(base, '/v1/schemes', {
      headers: { 'x-api-key': 'qrp_unknown0_000000000000000000000000000000' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.json().message).toMatch(/Invalid API key/);
    const { apiKey } = await seedTenant(pool);
    await createTenantStore(pool).markApiKeyRevoked(keyPrefix(apiKey));
    const revoked = await request(base, '/v1/schemes', { headers: { 'x-api-key': apiKey } });
    expect(revoked.status).toBe(401);
    expect(revoked.json().message).toMatch(/Invalid API key/);
  });

  it("maps the decoder's QrDecodeError to 422 with the decoder's own message", async () => {
    const { apiKey } = await seedTenant(pool);
    const res = await request(base, '/v1/resolve', {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ qr_string: '00020101021126580014br.gov.bcb.pix' }),
    });
    expect(res.status).toBe(422);
    expect(res.json()._tag).toBe('QrDecodeError');
    // What is wrong, in the decoder's words, not the registry's default message.
    expect(res.json().message).not.toBe('The QR code could not be decoded.');
    expect(res.json().message.length).toBeGreaterThan(10);
  });

  it('shows the payer rules payout enforces once, beside the schemes', async () => {
    const { apiKey } = await seedTenant(pool);
    const body = (await request(base, '/v1/schemes', { headers: { 'x-api-key': apiKey } })).json();
    const identity = body.payer_identity;
    const fields = (required: boolean) =>
      identity.fields
        .filter((f: { required: boolean }) => f.required === required)
        .map((f: { field: string }) => f.field);
    expect(fields(true)).toEqual(['payer_name', 'payer_account', 'payer_tax_id']);
    expect(fields(false)).toEqual(['payer_country', 'payer_id_type']);
    expect(identity.documents).toContainEqual(
      expect.objectContaining({ country: 'US', id_type: 'tax_id', name: 'SSN/ITIN/EIN' }),
    );
    expect(identity.passport_format).toMatch(/ICAO 9303/);
    // Shown once: no scheme repeats it.
    for (const s of body.schemes) expect(Object.keys(s)).not.toContain('payer_identity');
  });

  it('shows per-scheme limits from payout and refuses amounts outside them or beyond exact representation', async () => {
    const { apiKey } = await seedTenant(pool);
    const schemes = (await request(base, '/v1/schemes', { headers: { 'x-api-key': apiKey } })).json().schemes;
    expect(schemes.find((s: { id: string }) => s.id === 'BR.PIX')).toMatchObject({
      min_amount: 0.01,
      max_amount: 1000000,
    });
    for (const s of schemes) expect(typeof s.max_amount).toBe('number');
    // A static Pix without an amount: the payer's amount is the one checked.
    const resolve = (amount: string) =>
      request(base, '/v1/resolve', {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: `{"qr_string":${JSON.stringify(PIX_WITHOUT_AMOUNT)},"amount":${amount}}`,
      });
    expect((await resolve('1000000.00')).status).toBe(200);
    const above = await resolve('1000000.01');
    expect(above.status).toBe(422);
    expect(above.json()).toMatchObject({
      _tag: 'AmountOutOfRange',
      message: 'The amount is above the maximum of 1000000.00 BRL for this scheme.',
    });
    expect(above.json().docs_url).toMatch(/\/docs\/errors#AmountOutOfRange$/);
    // JSON.parse reads this as …98: refused, never paid as another amount.
    const inexact = await resolve('99999999999999.99');
    expect(inexact.status).toBe(400);
    expect(inexact.json()).toMatchObject({ _tag: 'ValidationError' });
    // Refused as written (@qr-payout/platform/json), before the amount's own checks see it.
    expect(inexact.json().message).toMatch(
      /^amount is 99999999999999.99 as written, which reads back as 99999999999999.98/,
    );
  });

  it('refuses half a surrogate pair in a QR or a payer text before anything is sent on (it became U+FFFD over gRPC)', async () => {
    const { apiKey } = await seedTenant(pool);
    const post = (path: string, body: string) =>
      request(base, path, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body,
      });
    // The escape is written as the client sends it: JSON allows it, Unicode has no such character.
    const qr = JSON.stringify(PIX_WITHOUT_AMOUNT);
    for (const [path, body, key] of [
      ['/v1/resolve', `{"qr_string":${qr.slice(0, 30)}\\ud800${qr.slice(30)}}`, 'qr_string'],
      ['/v1/pay', `{"qr_string":${qr},"amount":10,"payer_name":"Ju\\ud800an"}`, 'payer_name'],
    ] as const) {
      const refused = await post(path, body);
      expect([path, refused.status]).toEqual([path, 400]);
      expect(refused.json()).toMatchObject({ _tag: 'ValidationError' });
      expect(refused.json().message).toMatch(new RegExp(`^${key} holds half of a UTF-16 surrogate pair`));
    }
  });

  it("renders the decoder's QrLocationUnavailable (a PSP that does not answer) as its own 503, not ServiceUnavailable", async () => {
    const { apiKey } = await seedTenant(pool);
    const dynamicPix = dynamicPixQr({
      location: '127.0.0.1:9/pix/v2/qr/0123456789abcdef',
      name: 'LOJA',
      city: 'RIO',
    });
    const res = await request(base, '/v1/resolve', {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ qr_string: dynamicPix }),
    });
    expect(res.status).toBe(503);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['_tag', 'docs_url', 'message', 'request_id', 'type']);
    expect(body).toMatchObject({ _tag: 'QrLocationUnavailable', type: 'QrLocationUnavailable' });
    expect(body.docs_url).toMatch(/\/docs\/errors#QrLocationUnavailable$/);
    expect(body.request_id).toMatch(UUID);
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
    // The decoder's safe message says which PSP did not answer.
    expect(body.message).toMatch(/could not be reached/);
    expect(res.headers.get('retry-after')).toBe('2');
  });

  it('is ready with its database, and the admin API listens on its own port', async () => {
    expect((await request(base, '/readyz')).status).toBe(200);
    expect(gateway.adminUrl).not.toBe(gateway.url);
    const admin = await request(gateway.adminUrl, '/healthz');
    expect(admin.status).toBe(200);
    // The admin API is never on the public port.
    expect(
      (await request(base, '/payout.admin.v1.AdminService/ListTenants', { method: 'POST' })).status,
    ).toBe(404);
  });

  it('goes unready first when shutting down', async () => {
    gateway.beginShutdown();
    const res = await request(base, '/readyz');
    expect(res.status).toBe(503);
    expect(res.json()._tag).toBe('ServiceUnavailable');
  });
});
