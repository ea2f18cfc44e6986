import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { EgressTarget } from '../egress/guard';

// One webhook POST to a target the egress guard checked (docs/api/webhooks.md "The event",
// "Where we send"). The connection goes to the guard's pinned address and nowhere else: the socket
// is opened to that IP (so the agent pools sockets per address), with Host and TLS SNI set to the
// URL's host name so virtual hosting and certificate validation work as for any client. Redirects
// are never followed; a 3xx is an answer like any other. The answer's body is read only up to the
// excerpt cap.

export type SendRequest = {
  target: EgressTarget;
  /** Custom headers, Service-Signature, x-event-id, x-event-type: sent as given. */
  headers: Record<string, string>;
  /** The exact bytes stored for the delivery. */
  body: Buffer;
  /** The TCP connection must be up within this. */
  connectTimeoutMs: number;
  /** The whole exchange, connect included, up to the answer's status line. */
  timeoutMs: number;
  maxExcerptBytes: number;
  signal?: AbortSignal;
};

export type SendErrorClass =
  | 'timeout'
  | 'connect_timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'tls'
  | 'network';

export type SendOutcome =
  | {
      kind: 'response';
      status: number;
      excerpt: string;
      retryAfter: string | undefined;
      durationMs: number;
      address: string;
    }
  | { kind: 'error'; errorClass: SendErrorClass; message: string; durationMs: number; address: string };

export const USER_AGENT = 'qr-payout-webhooks/1';

// Created on first use, not at import; one pool per protocol for the whole process.
let agents: { http: http.Agent; https: https.Agent } | undefined;

function agentFor(protocol: string): http.Agent {
  agents ??= {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };
  return protocol === 'https:' ? agents.https : agents.http;
}

/** Closes every pooled socket (shutdown, tests); the next send makes new agents. */
export function closeSenderAgents(): void {
  agents?.http.destroy();
  agents?.https.destroy();
  agents = undefined;
}

// The connection is opened to an IP, so Node does not resolve anything; should that ever change,
// this lookup still answers only the checked address (net.connect may ask for `all` answers).
function pinnedLookup(target: EgressTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (err: null, all: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
}

// OpenSSL's certificate verification codes and Node's own TLS codes.
const TLS_ERROR_CODE =
  /^ERR_(TLS|SSL)_|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY|DECRYPT)|INVALID_CA|PATH_LENGTH|INVALID_PURPOSE|HOSTNAME_MISMATCH/;

function errorClassOf(err: unknown): SendErrorClass {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return 'network';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection_reset';
  if (code === 'ETIMEDOUT') return 'connect_timeout';
  if (TLS_ERROR_CODE.test(code)) return 'tls';
  return 'network';
}

function excerptOf(chunks: Buffer[], truncated: boolean): string {
  // Invalid sequences become U+FFFD; when the body was cut, a character split by the cut is
  // dropped rather than shown as a replacement character. NUL is valid UTF-8 but PostgreSQL text
  // cannot hold it, and the excerpt is stored (delivery_attempts.response_excerpt), so it goes too.
  return new TextDecoder('utf-8')
    .decode(Buffer.concat(chunks), { stream: truncated })
    .replaceAll('\0', '\ufffd');
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function sendWebhook(req: SendRequest): Promise<SendOutcome> {
  const { target, body } = req;
  const { url } = target;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    let totalTimer: NodeJS.Timeout | undefined;
    let connectTimer: NodeJS.Timeout | undefined;
    let request: http.ClientRequest | undefined;
    // What the total timeout means: no answer yet is an error; once the status line is in, it ends
    // the excerpt early (the receiver did answer, its status decides).
    let onDeadline = () => fail('timeout', `no answer within ${req.timeoutMs} ms`);

    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(totalTimer);
      clearTimeout(connectTimer);
      resolve(outcome);
    };
    const fail = (errorClass: SendErrorClass, message: string) => {
      settle({ kind: 'error', errorClass, message, durationMs: elapsed(), address: target.address });
      request?.destroy();
    };

    try {
      request = (url.protocol === 'https:' ? https : http).request({
        method: 'POST',
        protocol: url.protocol,
        host: target.address,
        family: target.family,
        port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
        path: `${url.pathname}${url.search}`,
        agent: agentFor(url.protocol),
        lookup: pinnedLookup(target),
        // SNI and certificate checks against the name; an IP-literal URL is checked against its IP.
        servername: isIP(hostname) === 0 ? hostname : undefined,
        headers: {
          'user-agent': USER_AGENT,
          ...req.headers,
          host: url.host,
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
        signal: req.signal,
      });
    } catch (err) {
      // A header value Node refuses (CR/LF); custom headers are validated at registration.
      fail('network', (err as Error).message);
      return;
    }

    totalTimer = setTimeout(() => onDeadline(), req.timeoutMs);
    request.on('socket', (socket) => {
      // A pooled socket is already connected; only a new one has a connect phase to time.
      if (!socket.connecting) return;
      connectTimer = setTimeout(
        () => fail('connect_timeout', `no connection within ${req.connectTimeoutMs} ms`),
        req.connectTimeoutMs,
      );
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    request.on('error', (err) => {
      const aborted = req.signal?.aborted === true;
      fail(aborted ? 'network' : errorClassOf(err), aborted ? 'aborted' : err.message);
    });
    request.on('response', (res) => {
      clearTimeout(connectTimer);
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = (truncated: boolean) => {
        settle({
          kind: 'response',
          status: res.statusCode ?? 0,
          excerpt: excerptOf(chunks, truncated),
          retryAfter: headerValue(res.headers['retry-after']),
          durationMs: elapsed(),
          address: target.address,
        });
        // An unread rest would have to be drained to reuse the socket; dropping it is cheaper.
        if (truncated) res.destroy();
      };
      onDeadline = () => answer(true);
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = req.maxExcerptBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          answer(true);
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      // Fully read: the socket goes back to the keep-alive pool.
      res.on('end', () => answer(false));
      // The connection dropped mid-body: the status is in, the excerpt is what arrived.
      res.on('close', () => answer(!res.complete));
      res.on('error', () => answer(true));
    });
    request.end(body);
  });
}
