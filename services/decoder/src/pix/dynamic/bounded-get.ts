import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

// One GET with a deadline and a size cap, following no redirect (a 3xx is just a status: the
// location and its JWKS must be served where the QR says). node:http rather than fetch, because
// the connection's address must pass our `lookup` (public-address.ts).

export type BoundedGetOptions = {
  timeoutMs: number;
  maxBytes: number;
  accept: string;
  lookup?: LookupFunction;
  signal?: AbortSignal;
};

export type BoundedGetResponse = { status: number; body: Buffer };

/**
 * Why a GET failed. `unreachable` and `timeout` are outages of the server, which may be over on a
 * retry; `unknown_host` (the name does not exist) and `non_public_address` (refused by our
 * SSRF guard) are answers that a retry cannot change, worded alike to the caller (http-fetcher).
 */
export type BoundedGetFailure =
  | 'unreachable'
  | 'unknown_host'
  | 'non_public_address'
  | 'timeout'
  | 'too_large';

export class BoundedGetError extends Error {
  constructor(
    readonly failure: BoundedGetFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BoundedGetError';
  }
}

export function boundedGet(url: URL, opts: BoundedGetOptions): Promise<BoundedGetResponse> {
  const client = url.protocol === 'http:' ? http : https;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (error: BoundedGetError) => {
      finish(() => reject(error));
      request.destroy();
    };
    const onAbort = () => fail(new BoundedGetError('timeout', 'the call was cancelled'));

    const request = client.get(
      url,
      {
        headers: { accept: opts.accept, 'user-agent': 'qr-payout-decoder' },
        ...(opts.lookup ? { lookup: opts.lookup } : {}),
      },
      (response) => {
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          response.resume();
          return fail(new BoundedGetError('too_large', `the response is larger than ${opts.maxBytes} bytes`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            fail(new BoundedGetError('too_large', `the response is larger than ${opts.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish(() => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) })),
        );
        response.on('error', (err) =>
          fail(new BoundedGetError('unreachable', `the response broke off (${err.message})`, { cause: err })),
        );
      },
    );
    request.on('error', (err: NodeJS.ErrnoException) =>
      fail(new BoundedGetError(connectFailure(err), describeConnectError(err), { cause: err })),
    );
    const timer = setTimeout(
      () => fail(new BoundedGetError('timeout', `no complete answer within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function connectFailure(err: NodeJS.ErrnoException): BoundedGetFailure {
  if (err.name === 'NonPublicAddressError') return 'non_public_address';
  // ENOTFOUND is the resolver's "no such name"; a resolver that could not answer is EAI_AGAIN.
  if (err.code === 'ENOTFOUND') return 'unknown_host';
  return 'unreachable';
}

function describeConnectError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ENOTFOUND':
      return 'the host name does not resolve';
    case 'EAI_AGAIN':
      return 'the host name could not be resolved now';
    case 'ECONNRESET':
      return 'the connection was reset';
    default:
      if (err.name === 'NonPublicAddressError') return err.message;
      // TLS failures (expired or untrusted certificate, wrong host) carry codes like CERT_HAS_EXPIRED.
      return err.code ? `the connection failed (${err.code})` : 'the connection failed';
  }
}
