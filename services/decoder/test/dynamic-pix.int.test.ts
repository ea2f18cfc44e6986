import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningPartnerSim } from '@qr-payout/partner-sim';
import { Code, ConnectError, readErrorDetail } from '@qr-payout/platform/errors';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { startTestPartnerSim } from '@qr-payout/test-kit/partner-sim';
import { encodeMerchantQr } from '../src/emv/encode';
import { loadDecoderConfig, startDecoder } from '../src/index';
import { createHttpDynamicPixFetcher } from '../src/pix/dynamic/http-fetcher';
import type { DynamicPixFetcher } from '../src/pix/dynamic/types';

// Dynamic Pix end to end over real HTTP: the partner simulator plays the receiving PSP (creates
// the charge, serves the signed payload at its location and its JWKS); the decoder's http
// fetcher fetches and verifies. A tampering proxy stands in for a man in the middle.

type Charge = { txid: string; location: string; qr_string: string };

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    return readErrorDetail(err);
  }
  throw new Error('expected the fetch to fail');
}

/** Forwards to the simulator; rewrites the amount inside location payloads, keeping the signature. */
function tamperingProxy(target: () => number, counts: Map<string, number>): http.Server {
  return http.createServer((request, response) => {
    const path = request.url ?? '/';
    counts.set(path, (counts.get(path) ?? 0) + 1);
    http.get({ host: '127.0.0.1', port: target(), path }, (upstream) => {
      const chunks: Buffer[] = [];
      upstream.on('data', (chunk: Buffer) => chunks.push(chunk));
      upstream.on('end', () => {
        let body = Buffer.concat(chunks).toString('utf8');
        if (path.startsWith('/pix/v2/qr/') && upstream.statusCode === 200) {
          const [header, payload, signature] = body.split('.');
          const json = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
          json.valor.original = '0.01';
          body = `${header}.${Buffer.from(JSON.stringify(json)).toString('base64url')}.${signature}`;
        }
        response.writeHead(upstream.statusCode ?? 502, {
          'content-type': upstream.headers['content-type'] ?? '',
        });
        response.end(body);
      });
    });
  });
}

/** Answers every GET with `status()` and a short body: a PSP in trouble (or refusing). */
function statusServer(status: () => number): http.Server {
  return http.createServer((_request, response) => {
    response.writeHead(status(), { 'content-type': 'text/plain' });
    response.end('unavailable');
  });
}

/** Forwards to the simulator, except its JWKS, which answers `jwksStatus()`: keys not published. */
function jwksFailingProxy(target: () => number, jwksStatus: () => number): http.Server {
  return http.createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/.well-known/jwks.json') {
      response.writeHead(jwksStatus(), { 'content-type': 'text/plain' });
      response.end('no keys');
      return;
    }
    http.get({ host: '127.0.0.1', port: target(), path }, (upstream) => {
      response.writeHead(upstream.statusCode ?? 502, upstream.headers);
      upstream.pipe(response);
    });
  });
}

describe('dynamic Pix: partner simulator → decoder http fetcher', () => {
  let sim: RunningPartnerSim;
  let simHost: string;
  let clockOffsetMs = 0;
  let fetcher: DynamicPixFetcher;
  // Behind the proxy: a second simulator whose public URL is the proxy's.
  let proxiedSim: RunningPartnerSim;
  let proxy: http.Server;
  let proxyHost: string;
  const proxyCounts = new Map<string, number>();
  let silent: http.Server;
  let silentHost: string;
  let closedHost: string;
  let troubled: http.Server;
  let troubledHost: string;
  let troubledStatus = 503;
  // A third simulator whose public URL is a proxy that fails its JWKS.
  let keylessSim: RunningPartnerSim;
  let keylessProxy: http.Server;
  let keylessHost: string;
  let jwksStatus = 503;

  // Charges are created on the simulator itself; payers reach it through the proxy.
  const proxiedDirect = () => `http://127.0.0.1:${proxiedSim.port}`;

  async function createCharge(base: string, body: Record<string, unknown> = {}): Promise<Charge> {
    const response = await fetch(`${base}/pix/v2/cob`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ valor: '25.90', chave: 'loja@example.com', nome: 'Padaria São João', ...body }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Charge;
  }

  beforeAll(async () => {
    sim = await startTestPartnerSim({}, { now: () => new Date(Date.now() + clockOffsetMs) });
    simHost = new URL(sim.baseUrl).host;

    proxy = tamperingProxy(() => proxiedSim.port, proxyCounts);
    proxyHost = `127.0.0.1:${await listen(proxy)}`;
    proxiedSim = await startTestPartnerSim({ PARTNER_SIM_PUBLIC_URL: `http://${proxyHost}` });

    // Accepts connections and never answers.
    silent = http.createServer(() => undefined);
    silentHost = `127.0.0.1:${await listen(silent)}`;
    const closed = http.createServer();
    closedHost = `127.0.0.1:${await listen(closed)}`;
    await close(closed);
    troubled = statusServer(() => troubledStatus);
    troubledHost = `127.0.0.1:${await listen(troubled)}`;
    keylessProxy = jwksFailingProxy(
      () => keylessSim.port,
      () => jwksStatus,
    );
    keylessHost = `127.0.0.1:${await listen(keylessProxy)}`;
    keylessSim = await startTestPartnerSim({ PARTNER_SIM_PUBLIC_URL: `http://${keylessHost}` });

    fetcher = createHttpDynamicPixFetcher({
      timeoutMs: 1_000,
      maxBytes: 65_536,
      httpHosts: [simHost, proxyHost, silentHost, closedHost, troubledHost, keylessHost],
      jwksCacheTtlMs: 60_000,
    });
  });

  afterAll(async () => {
    await Promise.all([sim?.close(), proxiedSim?.close(), keylessSim?.close()]);
    await Promise.all([
      proxy && close(proxy),
      silent && close(silent),
      troubled && close(troubled),
      keylessProxy && close(keylessProxy),
    ]);
  });

  it('fetches and verifies an active charge: key, name, amount and txid come from the signed payload', async () => {
    const charge = await createCharge(sim.baseUrl, { expiracao: 600 });
    expect(charge.location.startsWith(`${simHost}/pix/v2/qr/`)).toBe(true);
    expect(charge.qr_string).toContain(charge.location);

    const before = Date.now();
    const payload = await fetcher.fetch(charge.location);
    expect(payload).toEqual({
      txid: charge.txid,
      key: 'loja@example.com',
      creditorName: 'Padaria São João',
      amountMinor: 2590n,
      currency: 'BRL',
      status: 'ATIVA',
      revision: 0,
      expiresAt: expect.any(Date),
    });
    const expiresIn = (payload.expiresAt as Date).getTime() - before;
    expect(expiresIn).toBeGreaterThan(595_000);
    expect(expiresIn).toBeLessThanOrEqual(600_000);
  });

  it('answers location_not_found for a location the PSP does not know (404)', async () => {
    const detail = await failureOf(fetcher.fetch(`${simHost}/pix/v2/qr/0123456789abcdef0123456789abcdef`));
    expect(detail).toMatchObject({
      tag: 'QrDecodeError',
      field: 'qr_string',
      metadata: { reason: 'location_not_found', http_status: '404', location_host: simHost },
    });
    expect(detail?.message).toMatch(/not found/);
  });

  it('rejects a payload changed in transit: the signature no longer verifies', async () => {
    const charge = await createCharge(proxiedDirect());
    expect(charge.location.startsWith(`${proxyHost}/`)).toBe(true);
    const detail = await failureOf(fetcher.fetch(charge.location));
    expect(detail).toMatchObject({ tag: 'QrDecodeError', metadata: { reason: 'bad_signature' } });
  });

  it('fetches the JWKS once and serves later verifications from its cache', async () => {
    const jwksPath = '/.well-known/jwks.json';
    const first = proxyCounts.get(jwksPath) ?? 0;
    for (let i = 0; i < 2; i++) {
      await failureOf(fetcher.fetch((await createCharge(proxiedDirect())).location));
    }
    expect(proxyCounts.get(jwksPath)).toBe(Math.max(first, 1));
  });

  it('rejects an expired charge', async () => {
    clockOffsetMs = -2 * 3_600_000;
    const charge = await createCharge(sim.baseUrl, { expiracao: 3_600 });
    clockOffsetMs = 0;
    const detail = await failureOf(fetcher.fetch(charge.location));
    expect(detail).toMatchObject({ tag: 'QrDecodeError', metadata: { reason: 'expired' } });
    expect(detail?.message).toMatch(/expired at/);
  });

  it('rejects a charge the receiver removed', async () => {
    const charge = await createCharge(sim.baseUrl);
    const removed = await fetch(`${sim.baseUrl}/pix/v2/cob/${charge.txid}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }),
    });
    expect(removed.status).toBe(200);
    const detail = await failureOf(fetcher.fetch(charge.location));
    expect(detail).toMatchObject({
      metadata: { reason: 'not_active', status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    });
  });

  it('answers location_unreachable, a retryable QrLocationUnavailable, when nothing listens at the location', async () => {
    const detail = await failureOf(fetcher.fetch(`${closedHost}/pix/v2/qr/abc`));
    expect(detail).toMatchObject({
      tag: 'QrLocationUnavailable',
      code: Code.Unavailable,
      field: 'qr_string',
      metadata: { reason: 'location_unreachable', location_host: closedHost },
    });
    expect(detail?.message).toMatch(/could not be reached: the connection was refused/);
  });

  it('gives up at the deadline when the location does not answer: location_timeout, retryable', async () => {
    const started = Date.now();
    const detail = await failureOf(fetcher.fetch(`${silentHost}/pix/v2/qr/abc`));
    expect(detail).toMatchObject({
      tag: 'QrLocationUnavailable',
      code: Code.Unavailable,
      metadata: { reason: 'location_timeout' },
    });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it.each([
    [503, 'QrLocationUnavailable', Code.Unavailable],
    [500, 'QrLocationUnavailable', Code.Unavailable],
    [429, 'QrLocationUnavailable', Code.Unavailable],
    [403, 'QrDecodeError', Code.InvalidArgument],
  ])('a location answering HTTP %i is %s', async (status, tag, code) => {
    troubledStatus = status;
    const detail = await failureOf(fetcher.fetch(`${troubledHost}/pix/v2/qr/abc`));
    expect(detail).toMatchObject({
      tag,
      code,
      metadata: { reason: 'location_http_status', http_status: String(status), location_host: troubledHost },
    });
  });

  it.each([
    [503, 'jwks_unavailable', 'QrLocationUnavailable'],
    [404, 'jwks_invalid', 'QrDecodeError'],
  ])('a JWKS answering HTTP %i is %s (%s)', async (status, reason, tag) => {
    jwksStatus = status;
    const charge = await createCharge(`http://127.0.0.1:${keylessSim.port}`);
    expect(charge.location.startsWith(`${keylessHost}/`)).toBe(true);
    const detail = await failureOf(fetcher.fetch(charge.location));
    expect(detail).toMatchObject({ tag, metadata: { reason } });
    expect(detail?.message).toContain(`HTTP ${status}`);
  });

  it('fetches a host that is not allow-listed over https only, and never a loopback address', async () => {
    const strict = createHttpDynamicPixFetcher({
      timeoutMs: 1_000,
      maxBytes: 65_536,
      httpHosts: [],
      jwksCacheTtlMs: 60_000,
    });
    const charge = await createCharge(sim.baseUrl);
    const detail = await failureOf(strict.fetch(charge.location));
    expect(detail).toMatchObject({ metadata: { reason: 'location_invalid' } });
    // Refused by policy, not an outage: asking again gives the same answer.
    const byName = await failureOf(strict.fetch(`localhost:${sim.port}/pix/v2/qr/abc`));
    expect(byName).toMatchObject({ tag: 'QrDecodeError', metadata: { reason: 'location_host_unknown' } });
    // The same answer as for a name that does not exist: no DNS oracle through printed QRs.
    const missing = await failureOf(strict.fetch('no-such-host.invalid/pix/v2/qr/abc'));
    expect([byName?.message.replace(`localhost:${sim.port}`, 'HOST'), byName?.metadata?.reason]).toEqual([
      missing?.message.replace('no-such-host.invalid', 'HOST'),
      missing?.metadata?.reason,
    ]);
  });

  it('decodes a dynamic Pix QR through the decoder service, whose deps build the http fetcher from env', async () => {
    const decoder = await startDecoder(
      loadDecoderConfig({
        GRPC_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        PIX_LOCATION_HTTP_HOSTS: `${simHost},${closedHost}`,
        PIX_LOCATION_TIMEOUT_MS: '2000',
      }),
    );
    try {
      const client = createGrpcClient(DecoderService, {
        baseUrl: decoder.url,
        timeoutMs: 5_000,
      });
      const charge = await createCharge(sim.baseUrl, { valor: '13.37', chave: 'caixa@example.com' });
      const { decoded } = await client.decode({ qrString: charge.qr_string });
      expect(decoded).toMatchObject({
        schemeId: 'BR.PIX',
        country: 'BR',
        currency: 'BRL',
        amount: { currency: 'BRL', amountMinor: 1337n },
        creditor: { account: 'caixa@example.com' },
      });

      await fetch(`${sim.baseUrl}/pix/v2/cob/${charge.txid}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }),
      });
      const detail = await failureOf(client.decode({ qrString: charge.qr_string }));
      expect(detail).toMatchObject({ tag: 'QrDecodeError', metadata: { reason: 'not_active' } });

      // Pasted with a newline and spaces around it: the same decode as the bare text.
      const pasted = await createCharge(sim.baseUrl, { valor: '7.00', chave: 'caixa@example.com' });
      const { decoded: padded } = await client.decode({ qrString: ` \n${pasted.qr_string} \r\n` });
      expect(padded).toMatchObject({ schemeId: 'BR.PIX', amount: { amountMinor: 700n } });

      // A PSP that does not answer: UNAVAILABLE on the wire, with the tag that says so.
      const unreachable = encodeMerchantQr([
        { id: 1, value: '12' },
        {
          id: 26,
          value: [
            { id: 0, value: 'br.gov.bcb.pix' },
            { id: 25, value: `${closedHost}/pix/v2/qr/0123456789abcdef` },
          ],
        },
        { id: 52, value: '0000' },
        { id: 53, value: '986' },
        { id: 58, value: 'BR' },
        { id: 59, value: 'LOJA' },
        { id: 60, value: 'RIO' },
      ]);
      const outage = await client.decode({ qrString: unreachable }).catch((err: unknown) => err);
      expect(outage).toBeInstanceOf(ConnectError);
      expect((outage as ConnectError).code).toBe(Code.Unavailable);
      expect(readErrorDetail(outage)).toMatchObject({
        tag: 'QrLocationUnavailable',
        field: 'qr_string',
        metadata: { reason: 'location_unreachable', location_host: closedHost },
      });
    } finally {
      await closeGrpcClients();
      await decoder.stop();
    }
  });
});
