import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeSenderAgents, type SendOutcome, sendWebhook, USER_AGENT } from '../src/deliveries/sender';
import { createEgressGuard, type EgressTarget, type HostLookup, pinPublicAddress } from '../src/egress/guard';

// The sender against real local HTTP servers, and the egress guard in front of it. Needs nothing
// external: the receivers listen on 127.0.0.1, port 0.

type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer };

const MiB = 1024 * 1024;
const received: Received[] = [];
let connections = 0;
let redirectTargetHits = 0;
const servers: http.Server[] = [];
let port: number;
let redirectTargetPort: number;

function listen(server: http.Server | https.Server): Promise<number> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

function receiver(): http.Server {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      switch (req.url) {
        case '/ok':
          res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
          return;
        case '/fail':
          res.writeHead(500).end('boom');
          return;
        case '/busy':
          res.writeHead(429, { 'retry-after': '120' }).end();
          return;
        case '/redirect':
          res.writeHead(302, { location: `http://127.0.0.1:${redirectTargetPort}/landed` }).end('moved');
          return;
        case '/slow':
          return; // never answers
        case '/big':
          res.writeHead(200, { 'content-length': String(MiB) }).end(Buffer.alloc(MiB, 'a'));
          return;
        case '/bad-utf8':
          res.writeHead(200).end(Buffer.from([0x68, 0xff, 0x69, 0x20, 0xc3, 0xa9]));
          return;
        case '/nul':
          res.writeHead(200).end(Buffer.from([0x61, 0x00, 0x62]));
          return;
        default:
          res.writeHead(404).end();
      }
    });
  });
  server.on('connection', () => {
    connections++;
  });
  return server;
}

const pinnedTo = (path: string, targetPort = port): EgressTarget => ({
  ok: true,
  url: new URL(`http://127.0.0.1:${targetPort}${path}`),
  address: '127.0.0.1',
  family: 4,
});

function send(target: EgressTarget, overrides: Partial<Parameters<typeof sendWebhook>[0]> = {}) {
  return sendWebhook({
    target,
    headers: { 'x-event-id': 'evt_1', 'x-event-type': 'transaction.completed' },
    body: Buffer.from('{"ok":true}'),
    connectTimeoutMs: 2000,
    timeoutMs: 2000,
    maxExcerptBytes: 1024,
    ...overrides,
  });
}

const receiverLookup: HostLookup = async (hostname) =>
  hostname === 'receiver.example.test' ? [{ address: '127.0.0.1', family: 4 }] : [];

beforeAll(async () => {
  port = await listen(receiver());
  const redirectTarget = http.createServer((_req, res) => {
    redirectTargetHits++;
    res.end('landed');
  });
  redirectTargetPort = await listen(redirectTarget);
});

afterEach(() => {
  received.length = 0;
});

afterAll(async () => {
  closeSenderAgents();
  await Promise.all(
    servers.map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

describe('sendWebhook', () => {
  it('answers a 200 with its body as the excerpt', async () => {
    const outcome = await send(pinnedTo('/ok'));
    expect(outcome).toMatchObject({ kind: 'response', status: 200, excerpt: 'thanks', address: '127.0.0.1' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('answers a 500 as a response, and passes a 429 Retry-After through', async () => {
    await expect(send(pinnedTo('/fail'))).resolves.toMatchObject({
      kind: 'response',
      status: 500,
      excerpt: 'boom',
    });
    await expect(send(pinnedTo('/busy'))).resolves.toMatchObject({
      kind: 'response',
      status: 429,
      excerpt: '',
      retryAfter: '120',
    });
  });

  it('does not follow a redirect', async () => {
    const outcome = await send(pinnedTo('/redirect'));
    expect(outcome).toMatchObject({ kind: 'response', status: 302, excerpt: 'moved' });
    expect(redirectTargetHits).toBe(0);
    expect(received.map((r) => r.url)).toEqual(['/redirect']);
  });

  it('sends the body bytes and headers exactly as given', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"Jos\u00e9","amount":"10.00"}'), Buffer.from([0x0a])]);
    const headers = {
      'service-signature': 't=1700000000,v1=abc,v1=def',
      'x-event-id': '0f8fad5b-d9cb-469f-a165-70867728950e',
      'x-event-type': 'transaction.failed',
      'X-Tenant-Token': 'tok 123',
    };
    await send(pinnedTo('/ok?src=test'), { body, headers });
    expect(received).toHaveLength(1);
    const [got] = received;
    expect(got!.method).toBe('POST');
    expect(got!.url).toBe('/ok?src=test');
    expect(got!.body.equals(body)).toBe(true);
    expect(got!.headers).toMatchObject({
      'service-signature': 't=1700000000,v1=abc,v1=def',
      'x-event-id': '0f8fad5b-d9cb-469f-a165-70867728950e',
      'x-event-type': 'transaction.failed',
      'x-tenant-token': 'tok 123',
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': USER_AGENT,
      host: `127.0.0.1:${port}`,
    });
  });

  it('times out a server that does not answer', async () => {
    const outcome = await send(pinnedTo('/slow'), { timeoutMs: 300 });
    expect(outcome).toMatchObject({ kind: 'error', errorClass: 'timeout' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(2000);
  });

  it('caps the excerpt of a 1 MiB body and drops the connection instead of reading it all', async () => {
    const before = connections;
    const outcome = await send(pinnedTo('/big'), { maxExcerptBytes: 2048 });
    expect(outcome).toMatchObject({ kind: 'response', status: 200, excerpt: 'a'.repeat(2048) });
    // The capped socket is gone: the next send needs a new connection.
    await expect(send(pinnedTo('/ok'))).resolves.toMatchObject({ status: 200 });
    expect(connections - before).toBe(2);
  });

  it('replaces NUL, which PostgreSQL text cannot store', async () => {
    await expect(send(pinnedTo('/nul'))).resolves.toMatchObject({ excerpt: 'a\ufffdb' });
  });

  it('replaces invalid UTF-8 and drops a character split by the cap', async () => {
    await expect(send(pinnedTo('/bad-utf8'))).resolves.toMatchObject({ excerpt: 'h\ufffdi \u00e9' });
    await expect(send(pinnedTo('/bad-utf8'), { maxExcerptBytes: 5 })).resolves.toMatchObject({
      excerpt: 'h\ufffdi ',
    });
  });

  it('reports a refused connection on a closed port', async () => {
    const closed = http.createServer();
    const closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await send(pinnedTo('/ok', closedPort));
    expect(outcome).toMatchObject({ kind: 'error', errorClass: 'connection_refused', address: '127.0.0.1' });
  });

  it('reuses one keep-alive socket for sequential sends', async () => {
    closeSenderAgents();
    const before = connections;
    await expect(send(pinnedTo('/ok'))).resolves.toMatchObject({ status: 200 });
    await expect(send(pinnedTo('/fail'))).resolves.toMatchObject({ status: 500 });
    await expect(send(pinnedTo('/ok'))).resolves.toMatchObject({ status: 200 });
    expect(connections - before).toBe(1);
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = send(pinnedTo('/slow'), { signal: controller.signal, timeoutMs: 10_000 });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).resolves.toMatchObject({
      kind: 'error',
      errorClass: 'network',
      message: 'aborted',
    });
  });
});

describe('sendWebhook over TLS', () => {
  let dir: string;
  let tlsPort: number;
  const serverNames: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sender-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=receiver.example.test',
        '-addext',
        'subjectAltName=DNS:receiver.example.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const server = https.createServer(
      {
        key: readFileSync(join(dir, 'key.pem')),
        cert: readFileSync(join(dir, 'cert.pem')),
        SNICallback: (name, done) => {
          serverNames.push(name);
          done(null);
        },
      },
      (_req, res) => res.end('tls ok'),
    );
    tlsPort = await listen(server);
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends SNI for the host name and refuses an untrusted certificate as a tls error', async () => {
    const guard = createEgressGuard({ allowPrivateTargets: true, lookup: receiverLookup });
    const target = await guard.check(`https://receiver.example.test:${tlsPort}/hook`);
    expect(target).toMatchObject({ ok: true, address: '127.0.0.1' });
    const outcome = await send(target as EgressTarget);
    expect(outcome).toMatchObject({ kind: 'error', errorClass: 'tls' });
    expect(serverNames).toEqual(['receiver.example.test']);
  });
});

describe('the egress guard in front of the sender', () => {
  const strict = createEgressGuard({ allowPrivateTargets: false, lookup: receiverLookup });
  const relaxed = createEgressGuard({ allowPrivateTargets: true, lookup: receiverLookup });

  it('refuses localhost by name', async () => {
    await expect(
      createEgressGuard({ allowPrivateTargets: false }).check(`https://localhost:${port}/`),
    ).resolves.toEqual({
      ok: false,
      errorClass: 'refused_target',
      reason: 'url must not point at a local or metadata host',
    });
  });

  it('refuses localhost by its resolved address when the name rule is not asked (real resolver)', async () => {
    await expect(pinPublicAddress('localhost', { allowPrivateTargets: false })).resolves.toEqual({
      ok: false,
      errorClass: 'dns',
      reason: 'localhost does not resolve to a public address',
      detail: 'only loopback addresses',
    });
  });

  it('refuses a public-looking name that resolves to 127.0.0.1', async () => {
    await expect(strict.check(`https://receiver.example.test:${port}/ok`)).resolves.toEqual({
      ok: false,
      errorClass: 'dns',
      reason: 'receiver.example.test does not resolve to a public address',
      detail: 'only loopback addresses',
    });
  });

  it('delivers to the same name with private targets allowed, pinned, Host kept as the name', async () => {
    const target = await relaxed.check(`http://receiver.example.test:${port}/ok`);
    expect(target).toMatchObject({ ok: true, address: '127.0.0.1', family: 4 });
    const outcome: SendOutcome = await send(target as EgressTarget);
    expect(outcome).toMatchObject({ kind: 'response', status: 200, excerpt: 'thanks', address: '127.0.0.1' });
    expect(received.at(-1)!.headers.host).toBe(`receiver.example.test:${port}`);
  });

  it('never asks the system resolver for the pinned name', async () => {
    // receiver.example.test does not exist in DNS; a second lookup would fail the send.
    const target = await relaxed.check(`http://receiver.example.test:${port}/fail`);
    await expect(send(target as EgressTarget)).resolves.toMatchObject({ kind: 'response', status: 500 });
  });
});
