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

/** The public server's clientErrorHandler: a 400 ValidationError in the error shape, then close. */
export function clientErrorHandler(
  publicDocsUrl: string,
): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return (err, socket) => {
    // A reset connection has no one left to answer (Node's own handler does the same).
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      const requestId = randomUUID();
      const body = JSON.stringify(
        renderErrorBody({ tag: 'ValidationError', message: messageFor(err.code), requestId, publicDocsUrl }),
      );
      socket.write(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
