// The delivery baseline, its own process: the least a signed webhook delivery costs here. The same
// envelope bodies the service would send (made by its own envelope code, ./events.ts) are built
// up front; then `concurrency` loops (the worker's WEBHOOK_WORKER_CONCURRENCY) each sign the next
// one (HMAC-SHA256 of `<t>.<body>`, header `service-signature: t=..,v1=..`) and POST it over a
// keep-alive node:http agent with the headers the worker sends, and read the answer. No database,
// no Kafka, no egress guard, no sealed secrets. Driven over IPC by ./receiver.ts.
import http from 'node:http';
import { SIGNATURE_HEADER } from '@qr-payout/webhook-receiver';
import { signSignatureHeader } from '@qr-payout/webhook-receiver/signature-scheme';
import { EVENT_TYPE, syntheticEvent, webhookBodyOf } from './events';

export interface BaselineRequest {
  /** The receiver's base URL (http://127.0.0.1:port). */
  url: string;
  /** Receiver paths of the warm-up and of the measured run. */
  warmupPath: string;
  path: string;
  tenantId: string;
  secret: string;
  warmup: number;
  count: number;
  concurrency: number;
}

export interface BaselineResult {
  /** Epoch ms of the first measured send, and of the last measured answer. */
  startedAtMs: number;
  endedAtMs: number;
  responses: number;
  non2xx: number;
  errors: number;
  /** POST → answer of every measured request, ms. */
  latenciesMs: number[];
}

// As services/webhook/src/deliveries/sender.ts: one keep-alive pool for the process.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const USER_AGENT = 'qr-payout-webhooks/1';
const now = () => performance.timeOrigin + performance.now();

function post(url: URL, secret: string, eventId: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      method: 'POST',
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      agent,
      headers: {
        'user-agent': USER_AGENT,
        'x-event-id': eventId,
        'x-event-type': EVENT_TYPE,
        [SIGNATURE_HEADER]: signSignatureHeader([secret], body, Math.floor(Date.now() / 1000)),
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(body.length),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.end(body);
  });
}

type Body = { eventId: string; body: Buffer };

function bodiesFor(tenantId: string, count: number): Body[] {
  return Array.from({ length: count }, () => webhookBodyOf(syntheticEvent(tenantId, new Date())));
}

async function send(
  request: BaselineRequest,
  path: string,
  bodies: Body[],
): Promise<Omit<BaselineResult, 'startedAtMs'>> {
  const url = new URL(path, request.url);
  let next = 0;
  let responses = 0;
  let non2xx = 0;
  let errors = 0;
  let endedAtMs = 0;
  const latenciesMs: number[] = [];
  const loop = async () => {
    while (next < bodies.length) {
      const { eventId, body } = bodies[next++]!;
      const sentAt = performance.now();
      try {
        const status = await post(url, request.secret, eventId, body);
        latenciesMs.push(performance.now() - sentAt);
        responses += 1;
        if (status < 200 || status >= 300) non2xx += 1;
      } catch {
        errors += 1;
      }
      endedAtMs = now();
    }
  };
  await Promise.all(Array.from({ length: request.concurrency }, loop));
  return { endedAtMs, responses, non2xx, errors, latenciesMs };
}

process.on('message', async (message: { type: 'run'; request: BaselineRequest }) => {
  if (message.type !== 'run') return;
  const { request } = message;
  if (request.warmup > 0)
    await send(request, request.warmupPath, bodiesFor(request.tenantId, request.warmup));
  const bodies = bodiesFor(request.tenantId, request.count);
  process.send?.({ type: 'started' });
  const startedAtMs = now();
  const result = await send(request, request.path, bodies);
  process.send?.({ type: 'done', result: { startedAtMs, ...result } });
});
process.on('disconnect', () => {
  agent.destroy();
  process.exit(0);
});
process.send?.({ type: 'ready' });
