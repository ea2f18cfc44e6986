import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIM_API_KEY, SIM_CALLBACK_SECRET } from '@qr-payout/test-kit/partner-sim';
import {
  type PayoutResource,
  type RunningPartnerSim,
  type SignatureCheck,
  verifyCallbackSignature,
} from '../src/index';

// Helpers of the partner-sim integration tests: a caller speaking the partner protocol and a real
// HTTP receiver for callbacks that checks their signatures. The simulator itself starts through
// @qr-payout/test-kit/partner-sim (startTestPartnerSim).

export type Answer<T = Record<string, unknown>> = { status: number; contentType: string; body: T };

export async function call<T = Record<string, unknown>>(
  sim: RunningPartnerSim,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Answer<T>> {
  const response = await fetch(`${sim.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${SIM_API_KEY}`,
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...opts.headers,
    },
    ...(opts.body === undefined
      ? {}
      : { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) }),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: (text === '' ? {} : JSON.parse(text)) as T,
  };
}

export function submit(
  sim: RunningPartnerSim,
  key: string,
  body: unknown,
  opts: { signal?: AbortSignal } = {},
): Promise<Answer<PayoutResource & { code?: string; payout_id?: string }>> {
  return call(sim, 'POST', '/v1/payouts', { body, headers: { 'idempotency-key': key }, ...opts });
}

export function newKey(): string {
  return `txn_${randomUUID().replaceAll('-', '')}`;
}

export type ReceivedCallback = {
  path: string;
  rawBody: string;
  payout: PayoutResource;
  signature: SignatureCheck;
  receivedAt: number;
};

export type CallbackReceiver = {
  readonly url: string;
  readonly received: ReceivedCallback[];
  /** Statuses to answer the next callbacks to `path` with, in order; 204 once the list is used up. */
  answerNext(path: string, ...statuses: number[]): void;
  forPayout(payoutId: string): ReceivedCallback[];
  close(): Promise<void>;
};

/** A real HTTP server on a free port that records every callback and verifies its signature. */
export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const scripted = new Map<string, number[]>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const header = request.headers['partner-signature'];
      received.push({
        path: request.url ?? '',
        rawBody,
        payout: JSON.parse(rawBody) as PayoutResource,
        signature: verifyCallbackSignature({
          secret: SIM_CALLBACK_SECRET,
          header: Array.isArray(header) ? header[0] : header,
          rawBody,
          now: Math.floor(Date.now() / 1000),
        }),
        receivedAt: Date.now(),
      });
      response.statusCode = scripted.get(request.url ?? '')?.shift() ?? 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answerNext: (path, ...statuses) => scripted.set(path, [...(scripted.get(path) ?? []), ...statuses]),
    forPayout: (payoutId) => received.filter((callback) => callback.payout.id === payoutId),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A valid Pix payout body; `amountMinor` picks the sandbox outcome by its last two digits. */
export function pixPayout(amountMinor: string, callbackUrl: string, over: Record<string, unknown> = {}) {
  return {
    rail: 'pix',
    amount: { currency: 'BRL', amount_minor: amountMinor },
    creditor: { name: 'Padaria Sao Joao', account: 'loja@example.com', account_type: 'pix_email' },
    debtor: {
      name: 'Jane Roe',
      account: '0001-1234567',
      residency: 'non_resident',
      // A passport of a country none of the rails is in: a non-resident on every rail.
      document: { type: 'passport', number: 'C01X00T47', issuing_country: 'US' },
    },
    references: { txid: 'f0e1d2c3b4a5968778695a4b3c2d1e0f' },
    callback_url: `${callbackUrl}/v1/partner/callbacks/pix`,
    ...over,
  };
}
