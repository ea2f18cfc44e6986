import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeHttpAgents, httpRequest } from './request';

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string; socket: number };

// A real server on a free port; `handle` answers, every request is recorded with the number of
// the socket it came on.
let handle: (req: http.IncomingMessage, res: http.ServerResponse) => void;
let seen: Seen[] = [];
let sockets = 0;
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      socket: (req.socket as { n?: number }).n ?? -1,
    });
    handle(req, res);
  });
});
server.on('connection', (socket) => {
  sockets += 1;
  (socket as { n?: number }).n = sockets;
});
let base: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  seen = [];
  handle = (_req, res) => res.end('ok');
});

afterEach(() => {
  // A fresh pool per test, so each counts its own sockets.
  closeHttpAgents();
  server.closeAllConnections();
  sockets = 0;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('httpRequest', () => {
  it('GETs and reads the answer', async () => {
    handle = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    const answer = await httpRequest(`${base}/v1/things?x=1`, {
      method: 'GET',
      headers: { authorization: 'Bearer k' },
      timeoutMs: 1000,
    });
    expect(answer).toEqual({ status: 200, text: 'hello' });
    expect(seen).toEqual([expect.objectContaining({ method: 'GET', url: '/v1/things?x=1', body: '' })]);
    expect(seen[0]?.headers).toMatchObject({ authorization: 'Bearer k' });
  });

  it('POSTs a body with its byte length and the given headers', async () => {
    handle = (req, res) => res.writeHead(201).end(`got ${req.headers['content-length']}`);
    const body = JSON.stringify({ name: 'São Paulo' });
    const answer = await httpRequest(`${base}/v1/payouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'txn_1' },
      body,
      timeoutMs: 1000,
    });
    expect(answer).toEqual({ status: 201, text: `got ${Buffer.byteLength(body)}` });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/payouts', body });
    expect(seen[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      'idempotency-key': 'txn_1',
      'content-length': String(Buffer.byteLength(body)),
    });
    expect(seen[0]?.headers['transfer-encoding']).toBeUndefined();
  });

  it('decodes UTF-8 split across chunks', async () => {
    const bytes = Buffer.from('ação ✓', 'utf8');
    handle = (_req, res) => {
      res.write(bytes.subarray(0, 2)); // splits the two-byte "ç"
      setTimeout(() => res.end(bytes.subarray(2)), 10);
    };
    expect((await httpRequest(base, { method: 'GET', timeoutMs: 1000 })).text).toBe('ação ✓');
  });

  it('passes any status through and never follows a redirect', async () => {
    handle = (req, res) =>
      req.url === '/moved'
        ? res.writeHead(302, { location: `${base}/elsewhere` }).end()
        : res.writeHead(503).end('{"title":"busy"}');
    expect(await httpRequest(`${base}/busy`, { method: 'GET', timeoutMs: 1000 })).toEqual({
      status: 503,
      text: '{"title":"busy"}',
    });
    expect(await httpRequest(`${base}/moved`, { method: 'POST', body: '{}', timeoutMs: 1000 })).toEqual({
      status: 302,
      text: '',
    });
    expect(seen.map((request) => request.url)).toEqual(['/busy', '/moved']);
  });

  it('reuses one socket for sequential requests', async () => {
    for (let n = 0; n < 4; n += 1) {
      const method = n % 2 === 0 ? 'GET' : 'POST';
      await httpRequest(`${base}/${n}`, {
        method,
        body: method === 'POST' ? 'x' : undefined,
        timeoutMs: 1000,
      });
    }
    expect(seen.map((request) => request.socket)).toEqual([1, 1, 1, 1]);
    expect(sockets).toBe(1);
  });

  it('rejects with a TimeoutError when the answer is late, and when its body is', async () => {
    handle = () => {}; // never answers
    const started = Date.now();
    const late = await rejection(httpRequest(base, { method: 'GET', timeoutMs: 100 }));
    expect(late.name).toBe('TimeoutError');
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);

    handle = (_req, res) => res.writeHead(200).write('partial'); // never ends
    const slowBody = await rejection(httpRequest(base, { method: 'GET', timeoutMs: 100 }));
    expect(slowBody.name).toBe('TimeoutError');
  });

  it('rejects with an AbortError when the signal aborts, before or during the request', async () => {
    const before = new AbortController();
    before.abort();
    const early = await rejection(
      httpRequest(base, { method: 'GET', timeoutMs: 1000, signal: before.signal }),
    );
    expect(early.name).toBe('AbortError');
    expect(seen).toEqual([]);

    handle = () => {}; // never answers
    const during = new AbortController();
    const pending = httpRequest(base, { method: 'POST', body: '{}', timeoutMs: 5000, signal: during.signal });
    setTimeout(() => during.abort(), 20);
    expect((await rejection(pending)).name).toBe('AbortError');
    expect(getEventListeners(during.signal, 'abort')).toHaveLength(0);
  });

  it('removes its abort listener once answered', async () => {
    const controller = new AbortController();
    await httpRequest(base, { method: 'GET', timeoutMs: 1000, signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the network error itself', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await rejection(
      httpRequest(`http://127.0.0.1:${port}/`, { method: 'GET', timeoutMs: 1000 }),
    );
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });

    handle = (req) => req.socket.destroy(); // hangs up without an answer
    const reset = await rejection(httpRequest(base, { method: 'GET', timeoutMs: 1000 }));
    expect(reset).toMatchObject({ code: 'ECONNRESET' });

    handle = (req, res) => {
      res.writeHead(200, { 'content-length': '100' }).write('partial');
      setTimeout(() => req.socket.destroy(), 10); // hangs up mid-body
    };
    const cut = await rejection(httpRequest(base, { method: 'GET', timeoutMs: 1000 }));
    expect(cut).toMatchObject({ code: 'ECONNRESET' });
  });

  it('rejects a URL it cannot send to', async () => {
    expect(
      await rejection(httpRequest('ftp://127.0.0.1/x', { method: 'GET', timeoutMs: 1000 })),
    ).toMatchObject({
      code: 'ERR_INVALID_PROTOCOL',
    });
    expect(await rejection(httpRequest('not a url', { method: 'GET', timeoutMs: 1000 }))).toMatchObject({
      code: 'ERR_INVALID_URL',
    });
  });
});
