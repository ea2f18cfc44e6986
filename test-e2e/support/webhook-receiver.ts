// A webhook receiver for the e2e suite: a real node:http server that records every request with
// its raw body and checks every Service-Signature twice, with the integrators' helper
// (@qr-payout/webhook-receiver) and independently with a plain HMAC over `<t>.<raw body>`
// (docs/api/webhooks.md "The signature"), so a bug shared by our signer and our helper cannot pass.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@qr-payout/webhook-receiver';

export type ReceivedWebhook = {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  envelope: {
    schema_version: string;
    event_id: string;
    event_type: string;
    occurred_at: string;
    data: Record<string, unknown>;
  };
  /** Our helper's verdict and the plain HMAC's, against the secrets the test gave. */
  helperVerified: boolean;
  plainVerified: boolean;
  receivedAt: number;
  /** The status the receiver answered (set once decided). */
  answeredStatus?: number;
};

/** What the receiver answers a request: a status, optionally after holding it. */
export type Answer = { status: number; holdMs?: number };

export type WebhookReceiver = {
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** The secrets signatures must verify with (current first). */
  setSecrets(secrets: string[]): void;
  /** How to answer requests to `path` (default 200). */
  answer(path: string, decide: (nth: number) => Answer): void;
  /** Requests to `path`. */
  at(path: string): ReceivedWebhook[];
  waitFor(predicate: (all: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

/** Parses `t=..,v1=..[,v1=..]` and recomputes each v1 with each secret; plain node:crypto. */
export function plainHmacVerifies(header: string | undefined, rawBody: Buffer, secrets: string[]): boolean {
  if (!header) return false;
  const parts = header.split(',').map((part) => part.split('=', 2) as [string, string | undefined]);
  const t = parts.find(([k]) => k === 't')?.[1];
  const v1s = parts.filter(([k]) => k === 'v1').map(([, v]) => v);
  if (!t || !/^\d+$/.test(t) || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  return secrets.some((secret) => {
    const digest = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
    return v1s.includes(digest);
  });
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const answers = new Map<string, (nth: number) => Answer>();
  const counts = new Map<string, number>();
  let secrets: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const rawBody = Buffer.concat(chunks);
      const header = req.headers['service-signature'] as string | undefined;
      let envelope: ReceivedWebhook['envelope'];
      try {
        envelope = JSON.parse(rawBody.toString('utf8')) as ReceivedWebhook['envelope'];
      } catch {
        res.writeHead(400).end();
        return;
      }
      const entry: ReceivedWebhook = {
        path,
        headers: req.headers,
        rawBody,
        envelope,
        helperVerified: verifyWebhookSignature({ header, rawBody, secrets }).ok,
        plainVerified: plainHmacVerifies(header, rawBody, secrets),
        receivedAt: Date.now(),
      };
      received.push(entry);
      const nth = (counts.get(path) ?? 0) + 1;
      counts.set(path, nth);
      const { status, holdMs } = answers.get(path)?.(nth) ?? { status: 200 };
      entry.answeredStatus = status;
      const reply = () => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
      };
      if (holdMs) setTimeout(reply, holdMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    setSecrets(list) {
      secrets = list;
    },
    answer(path, decide) {
      answers.set(path, decide);
    },
    at(path) {
      return received.filter((r) => r.path === path);
    },
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
