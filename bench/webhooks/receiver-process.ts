// The webhook receiver of the bench, its own process (so its CPU is counted apart): a bare
// node:http server that answers 200 at once on keep-alive connections, records per path when each
// request arrived with its x-event-id and the envelope's transaction id and occurred_at, and
// verifies the Service-Signature of one request in `verifyEvery` (the first always) with a plain
// HMAC-SHA256 over `<t>.<raw body>` (docs/api/webhooks.md "The signature"). The parent drives it
// over the IPC channel:
//   parent → { type: 'secrets', path, secrets } | { type: 'count', id, path } | { type: 'stats', id, path }
//   child  → { type: 'ready', port } | { type: 'count', id, count } | { type: 'stats', id, stats }
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceiverStats } from './receiver';

const verifyEvery = Math.max(1, Number(process.argv[2] ?? '10'));
// Generous, so a pooled socket of the sender is never closed under it between two phases.
const KEEP_ALIVE_MS = 120_000;

type PathLog = ReceiverStats;

const logs = new Map<string, PathLog>();
const secretsByPath = new Map<string, string[]>();

function logOf(path: string): PathLog {
  let log = logs.get(path);
  if (!log) {
    log = {
      requests: 0,
      checked: 0,
      badSignatures: 0,
      unparsable: 0,
      eventIds: [],
      transactionIds: [],
      occurredAtMs: [],
      receivedAtMs: [],
    };
    logs.set(path, log);
  }
  return log;
}

/** `t=<s>,v1=<hex>[,v1=<hex>]`: some v1 is the HMAC of `<t>.<body>` under one of the secrets. */
function verifies(header: string | undefined, body: Buffer, secrets: readonly string[]): boolean {
  if (!header || secrets.length === 0) return false;
  let t: string | undefined;
  const v1s: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (key === 't') t = value;
    else if (key === 'v1') v1s.push(Buffer.from(value, 'hex'));
  }
  if (!t || !/^\d+$/.test(t) || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  return secrets.some((secret) => {
    const digest = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
    return v1s.some((v1) => v1.length === digest.length && timingSafeEqual(v1, digest));
  });
}

const now = () => performance.timeOrigin + performance.now();

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const receivedAt = now();
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
    const path = (req.url ?? '/').split('?')[0]!;
    const log = logOf(path);
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    log.requests += 1;
    if (log.requests % verifyEvery === 1 || verifyEvery === 1) {
      log.checked += 1;
      const header = req.headers['service-signature'];
      if (!verifies(typeof header === 'string' ? header : undefined, body, secretsByPath.get(path) ?? []))
        log.badSignatures += 1;
    }
    let transactionId = '';
    let occurredAtMs = Number.NaN;
    try {
      const envelope = JSON.parse(body.toString('utf8')) as {
        occurred_at?: string;
        data?: { transaction_id?: string };
      };
      transactionId = envelope.data?.transaction_id ?? '';
      occurredAtMs = Date.parse(envelope.occurred_at ?? '');
    } catch {
      log.unparsable += 1;
    }
    const eventId = req.headers['x-event-id'];
    log.eventIds.push(typeof eventId === 'string' ? eventId : '');
    log.transactionIds.push(transactionId);
    log.occurredAtMs.push(occurredAtMs);
    log.receivedAtMs.push(receivedAt);
  });
});
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.headersTimeout = KEEP_ALIVE_MS + 1_000;

type Command =
  | { type: 'secrets'; path: string; secrets: string[] }
  | { type: 'count'; id: number; path: string }
  | { type: 'stats'; id: number; path: string };

process.on('message', (command: Command) => {
  if (command.type === 'secrets') secretsByPath.set(command.path, command.secrets);
  else if (command.type === 'count') {
    process.send?.({ type: 'count', id: command.id, count: logs.get(command.path)?.requests ?? 0 });
  } else if (command.type === 'stats') {
    process.send?.({ type: 'stats', id: command.id, stats: logOf(command.path) });
  }
});
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port });
});
