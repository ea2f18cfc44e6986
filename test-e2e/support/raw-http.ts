// A POST written byte for byte on a socket, for the requests fetch refuses to send (a control
// character or DEL in a header value, spaces around one), which the gateway must still answer in
// its error body (docs/api/errors.md "Requests HTTP refuses").
import net from 'node:net';
import type { ApiResponse } from './http';

const HEAD_END = Buffer.from('\r\n\r\n');

/** The body of a `transfer-encoding: chunked` answer. */
function unchunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = lineEnd < 0 ? 0 : Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

function parseAnswer(raw: Buffer): ApiResponse {
  const headEnd = raw.indexOf(HEAD_END);
  if (headEnd < 0) throw new Error(`no complete answer (${raw.length} bytes)`);
  const [statusLine = '', ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const rest = raw.subarray(headEnd + HEAD_END.length);
  const body = headers.get('transfer-encoding')?.includes('chunked') ? unchunked(rest) : rest;
  const length = headers.get('content-length');
  if (length !== null && body.length < Number(length))
    throw new Error(`the answer ended after ${body.length} of ${length} body bytes`);
  const text = body.toString('utf8');
  let json: Record<string, unknown> | undefined;
  if ((headers.get('content-type') ?? '').includes('json')) {
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text, json };
}

/**
 * POST `body` (UTF-8) to `path` with `headers` written as Latin-1 bytes, exactly as given, and the
 * whole answer read until the server closes (`connection: close`), within 15 s.
 */
export function rawPost(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<ApiResponse> {
  const url = new URL(baseUrl);
  const payload = Buffer.from(body, 'utf8');
  const head = [
    `POST ${path} HTTP/1.1`,
    `host: ${url.host}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${payload.length}`,
    'connection: close',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(url.port), url.hostname, () =>
      socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), payload])),
    );
    socket.setTimeout(15_000, () => socket.destroy(new Error('no answer within 15 s')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    let failure: Error | undefined;
    socket.on('error', (err) => {
      failure = err;
    });
    socket.on('close', () => {
      // A reset after the whole answer arrived is the server closing as it said it would.
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (err) {
        reject(failure ?? err);
      }
    });
  });
}
