import { createPublicKey, verify } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parseEmv } from '@qr-payout/decoder/emv/tlv';
import { silentLogger } from '@qr-payout/platform/log';
import type { FastifyInstance } from 'fastify';
import { loadPartnerSimConfig } from './config';
import { createPayoutDesk } from './payouts/desk';
import { createChargeStore } from './pix/charges';
import { buildPartnerSimApp } from './server';
import { loadSigningKey } from './signing/keys';

const PUBLIC_URL = 'http://127.0.0.1:4010';

// Real requests over a socket on port 0: fastify.inject needs light-my-request, which loads an
// ES module jest cannot require.
async function send(app: FastifyInstance, method: string, path: string, body?: unknown) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return {
    statusCode: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: text,
    json: () => JSON.parse(text),
  };
}

function decodePart(part: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
}

describe('partner-sim Pix dynamic routes', () => {
  const signingKey = loadSigningKey(undefined);
  let clock = new Date('2026-11-23T12:00:00.000Z');
  let app: FastifyInstance;

  beforeEach(() => {
    clock = new Date('2026-11-23T12:00:00.000Z');
    const now = () => clock;
    app = buildPartnerSimApp({
      logger: silentLogger(),
      now,
      signingKey,
      charges: createChargeStore({ now }),
      publicUrl: () => PUBLIC_URL,
      payouts: createPayoutDesk(loadPartnerSimConfig({}), { now, logger: silentLogger() }),
    });
  });

  afterEach(() => app.close());

  async function createCharge(body: Record<string, unknown> = {}) {
    const response = await send(app, 'POST', '/pix/v2/cob', {
      valor: '25.90',
      chave: 'loja@example.com',
      nome: 'Padaria São João',
      ...body,
    });
    return { status: response.statusCode, body: response.json() };
  }

  it('creates a charge and answers its location and BR Code', async () => {
    const { status, body } = await createCharge({ expiracao: 600 });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      txid: expect.stringMatching(/^[a-f0-9]{32}$/),
      revisao: 0,
      status: 'ATIVA',
      calendario: {
        criacao: '2026-11-23T12:00:00.000Z',
        expiracao: 600,
        expira_em: '2026-11-23T12:10:00.000Z',
      },
      valor: { original: '25.90' },
      location: expect.stringMatching(/^127\.0\.0\.1:4010\/pix\/v2\/qr\/[a-f0-9]{32}$/),
    });
    const qr: string = body.qr_string;
    expect(qr).toContain(`25${String(body.location.length).padStart(2, '0')}${body.location}`);
    expect(qr).toContain('540525.90');
    expect(qr).toContain('5916Padaria Sao Joao');
    expect(() => parseEmv(qr)).not.toThrow();
  });

  it('serves the payload at the location as a JWS verifiable with the published JWKS', async () => {
    const { body: charge } = await createCharge();
    clock = new Date('2026-11-23T12:00:05.000Z');
    const path = charge.location.slice(charge.location.indexOf('/'));
    const response = await send(app, 'GET', path);
    expect(response.statusCode).toBe(200);
    expect(response.contentType).toMatch(/^application\/jose/);
    const [header, payload, signature] = response.body.split('.');
    expect(decodePart(header)).toEqual({
      alg: 'ES256',
      kid: signingKey.kid,
      jku: `${PUBLIC_URL}/.well-known/jwks.json`,
    });
    expect(decodePart(payload)).toEqual({
      txid: charge.txid,
      revisao: 0,
      calendario: {
        criacao: '2026-11-23T12:00:00.000Z',
        apresentacao: '2026-11-23T12:00:05.000Z',
        expiracao: 86_400,
      },
      status: 'ATIVA',
      valor: { original: '25.90' },
      chave: 'loja@example.com',
      recebedor: { nome: 'Padaria São João' },
    });

    const jwks = await send(app, 'GET', '/.well-known/jwks.json');
    const [jwk] = jwks.json().keys;
    expect(jwk).toMatchObject({ kid: signingKey.kid, kty: 'EC', alg: 'ES256', use: 'sig' });
    const ok = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature ?? '', 'base64url'),
    );
    expect(ok).toBe(true);
  });

  it('answers 404 for an unknown location', async () => {
    const response = await send(app, 'GET', '/pix/v2/qr/0123456789abcdef0123456789abcdef');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ title: 'LocationNaoEncontrado', status: 404 });
  });

  it('removes a charge: the location then serves it with the new status and revision', async () => {
    const { body: charge } = await createCharge();
    const removed = await send(app, 'PATCH', `/pix/v2/cob/${charge.txid}`, {
      status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });

    const again = await send(app, 'PATCH', `/pix/v2/cob/${charge.txid}`, {
      status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
    });
    expect(again.statusCode).toBe(409);

    const location = await send(app, 'GET', charge.location.slice(charge.location.indexOf('/')));
    expect(decodePart(location.body.split('.')[1])).toMatchObject({
      status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
      revisao: 1,
    });
  });

  it('keeps an expired charge ATIVA: expiry is read from calendario', async () => {
    const { body: charge } = await createCharge({ expiracao: 60 });
    clock = new Date('2026-11-23T13:00:00.000Z');
    const location = await send(app, 'GET', charge.location.slice(charge.location.indexOf('/')));
    expect(decodePart(location.body.split('.')[1])).toMatchObject({
      status: 'ATIVA',
      calendario: {
        criacao: '2026-11-23T12:00:00.000Z',
        apresentacao: '2026-11-23T13:00:00.000Z',
        expiracao: 60,
      },
    });
  });

  it('refuses a malformed charge with a problem body', async () => {
    const bad = await createCharge({ valor: '12.3' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ title: 'RequisicaoInvalida', status: 400 });
    const noAscii = await createCharge({ nome: '☕☕' });
    expect(noAscii.status).toBe(400);
  });
});
