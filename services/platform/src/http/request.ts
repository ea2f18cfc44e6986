import http from 'node:http';
import https from 'node:https';

// The services' one outbound HTTP client: node:http over a shared keep-alive agent. The global
// fetch (undici) plus AbortSignal.timeout cost ~3x the CPU per request on the payout path.

export type HttpRequestOptions = {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as UTF-8, with its content-length. */
  body?: string;
  /** For the whole request: waiting for a socket, connecting, sending, and reading the answer. */
  timeoutMs: number;
  signal?: AbortSignal;
};

/** Any status, 3xx included: redirects are never followed. */
type HttpResponse = { status: number; text: string };

// One pool per protocol for the whole process, so sequential requests to a host reuse a socket.
// Created on first use so closeHttpAgents() can be followed by further requests (tests).
let httpAgent: http.Agent | undefined;
let httpsAgent: https.Agent | undefined;
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 256 };

function agentFor(secure: boolean): http.Agent {
  if (secure) {
    httpsAgent ??= new https.Agent(AGENT_OPTIONS);
    return httpsAgent;
  }
  httpAgent ??= new http.Agent(AGENT_OPTIONS);
  return httpAgent;
}

/** Destroys the pooled sockets (requests still under way fail). For shutdown and tests. */
export function closeHttpAgents(): void {
  httpAgent?.destroy();
  httpsAgent?.destroy();
  httpAgent = undefined;
  httpsAgent = undefined;
}

function namedError(name: 'TimeoutError' | 'AbortError', message: string, cause?: unknown): Error {
  const err = new Error(message, cause === undefined ? undefined : { cause });
  err.name = name;
  return err;
}

/**
 * Sends one request and reads the whole answer as UTF-8 text. Rejects with an Error named
 * TimeoutError after `timeoutMs`, one named AbortError when `signal` aborts, and the socket's own
 * error (ECONNREFUSED, ECONNRESET, ...) otherwise.
 */
export function httpRequest(url: string, opts: HttpRequestOptions): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    const { signal, body } = opts;
    if (signal?.aborted) {
      reject(namedError('AbortError', 'request aborted', signal.reason));
      return;
    }
    const secure = /^https:/i.test(url);
    const headers =
      body === undefined
        ? opts.headers
        : { ...opts.headers, 'content-length': String(Buffer.byteLength(body)) };
    let req: http.ClientRequest;
    try {
      // The URL string is handed over as is: node parses it once (and refuses other protocols).
      req = (secure ? https : http).request(url, { method: opts.method, headers, agent: agentFor(secure) });
    } catch (err) {
      reject(err);
      return;
    }

    let settled = false;
    const settle = (err: Error | undefined, response?: HttpResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (err) {
        // The socket is closed rather than returned to the pool: an answer may still be on the way.
        req.destroy();
        reject(err);
      } else {
        resolve(response!);
      }
    };
    const onAbort = (): void => settle(namedError('AbortError', 'request aborted', signal?.reason));
    const timer = setTimeout(
      () => settle(namedError('TimeoutError', `request timed out after ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });

    // The listener stays on: destroying a request can still emit an error after it settled.
    req.on('error', (err) => settle(err));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      // Reading to the end is also what returns the socket to the pool.
      res.on('end', () =>
        settle(undefined, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', (err) => settle(err));
      // A connection closed mid-body does not always emit an error; this covers it.
      res.on('close', () => {
        if (!res.complete)
          settle(Object.assign(new Error('response closed before its end'), { code: 'ECONNRESET' }));
      });
    });
    req.end(body);
  });
}
