import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { renderErrorBody } from '../errors/registry';

// Requests Node's HTTP parser refuses before any route sees them: headers larger than it reads, a
// byte HTTP does not allow in a header, a request that was not received in time. Fastify's own
// answer has a body of its own shape; this one is the API's error body (docs/api/errors.md "The
// error body"), with a request id like every other answer.

/** What each parser error means to the client; anything else is "not valid HTTP". */
function messageFor(code: string | undefined): string {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'The request headers are larger than the server reads (16 KiB in all).';
    case 'HPE_INVALID_HEADER_TOKEN':
      return 'A request header holds a character HTTP does not allow (a control character or DEL).';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_REQUEST_HEADERS_TIMEOUT':
      return 'The request was not received in time.';
    default:
      return 'The request is not valid HTTP.';
  }
}

/** A parser error's answer: its body (JSON) and any header beyond the framing ones. */
type ParserErrorAnswer = { body: string; headers?: Record<string, string> };

/** A server's clientErrorHandler: a 400 with the body `answer` makes of the message, then close. */
function answeringClientErrors(
  answer: (message: string) => ParserErrorAnswer,
): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return (err, socket) => {
    // A reset connection has no one left to answer (Node's own handler does the same).
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      const { body, headers = {} } = answer(messageFor(err.code));
      const extra = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}

/** The public server's clientErrorHandler: a 400 ValidationError in the error shape, then close. */
export function clientErrorHandler(
  publicDocsUrl: string,
): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return answeringClientErrors((message) => {
    const requestId = randomUUID();
    const body = renderErrorBody({ tag: 'ValidationError', message, requestId, publicDocsUrl });
    return { body: JSON.stringify(body), headers: { 'x-request-id': requestId } };
  });
}

/** The admin server's: Connect's error shape, `invalid_argument` (docs/api/errors.md "Requests HTTP refuses"). */
export function adminClientErrorHandler(): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return answeringClientErrors((message) => ({
    body: JSON.stringify({ code: 'invalid_argument', message }),
  }));
}
