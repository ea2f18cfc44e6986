import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A scripted webhook receiver for the delivery tests: a local node:http server whose answer per
// path is scripted (status codes in sequence, optionally held back), recording every request's raw
// body bytes, headers and arrival time. It verifies Service-Signature on its own, as a tenant's
// receiver would (docs/api/webhooks.md "The signature"): it shares no code with the service's signer.

/** The tolerance a receiver applies to `t=` (docs/api/webhooks.md "The signature", recommended). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type ReceivedRequest = {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
  /** The `t=` of Service-Signature; undefined when absent or not a decimal. */
  timestamp: number | undefined;
  /** For each `v1=` in header order: the route secret it verifies with, or undefined. */
  signedWith: Array<string | undefined>;
  /** At least one v1 verified and `t` was within the tolerance. */
  verified: boolean;
  /** The status the receiver answered. */
  answeredStatus: number;
};

export type RouteScript = {
  /** The secrets signatures are checked against (read at each request, so it may be changed). */
  secrets: string[];
  /** Status codes answered in order; the last one repeats. Default [200]. */
  answers?: number[];
  /** When set, the answer waits until it settles. */
  gate?: Promise<unknown>;
};

export type Route = RouteScript & { readonly requests: ReceivedRequest[] };

export type Receiver = {
  readonly port: number;
  /** http://127.0.0.1:<port><path> */
  url(path: string): string;
  /** Scripts `path` (which must be new) and returns its route, whose requests fill in. */
  route(path: string, script: RouteScript): Route;
  /** Every request, routed or not, in arrival order. */
  readonly all: ReceivedRequest[];
  close(): Promise<void>;
};

type ParsedSignature = { timestamp: number | undefined; v1: string[] };

function parseSignature(header: string | undefined): ParsedSignature {
  const parsed: ParsedSignature = { timestamp: undefined, v1: [] };
  for (const part of (header ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) parsed.timestamp = Number(value);
    if (key === 'v1') parsed.v1.push(value);
  }
  return parsed;
}

function verifiesWith(secret: string, timestamp: number, body: Buffer, v1: string): boolean {
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  if (!/^[0-9a-f]{64}$/.test(v1)) return false;
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

export async function startReceiver(): Promise<Receiver> {
  const routes = new Map<string, Route & { answered: number }>();
  const all: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const receivedAt = Date.now();
      const body = Buffer.concat(chunks);
      const path = req.url ?? '';
      const route = routes.get(path);
      const header = req.headers['service-signature'];
      const { timestamp, v1 } = parseSignature(Array.isArray(header) ? header[0] : header);
      const secrets = route?.secrets ?? [];
      const signedWith =
        timestamp === undefined
          ? v1.map(() => undefined)
          : v1.map((sig) => secrets.find((secret) => verifiesWith(secret, timestamp, body, sig)));
      const fresh =
        timestamp !== undefined && Math.abs(receivedAt / 1000 - timestamp) <= SIGNATURE_TOLERANCE_SECONDS;
      const verified = fresh && signedWith.some((secret) => secret !== undefined);
      let status = 404;
      if (route) {
        const answers = route.answers ?? [200];
        status = answers[Math.min(route.answered, answers.length - 1)] ?? 200;
        route.answered++;
        // A receiver rejects what does not verify (docs/api/webhooks.md "The signature").
        if (!verified) status = 401;
      }
      const received: ReceivedRequest = {
        path,
        headers: req.headers,
        body,
        receivedAt,
        timestamp,
        signedWith,
        verified,
        answeredStatus: status,
      };
      all.push(received);
      route?.requests.push(received);
      if (route?.gate) await route.gate.catch(() => undefined);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  // Longer than any test: a pooled socket the sender reuses is never closed under it.
  server.keepAliveTimeout = 120_000;
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    route(path, script) {
      if (routes.has(path)) throw new Error(`route ${path} is scripted already`);
      const route = Object.assign(script, { requests: [] as ReceivedRequest[], answered: 0 });
      routes.set(path, route);
      return route;
    },
    all,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
