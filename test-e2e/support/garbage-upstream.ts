import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

export interface GarbageUpstream {
  url: string;
  /** Text every answer carries, so a test can prove none of it reaches a client. */
  marker: string;
  close(): Promise<void>;
}

/**
 * A plain HTTP/2 server that is not gRPC: it answers every request with 200 and an HTML page, so a
 * gRPC client talking to it gets an answer it cannot read (no grpc content type, no trailers), the
 * "garbage upstream" of the e2e 500 check. With `tls` (a certificate of the run's CA) it speaks
 * TLS, as the services it stands in for do under mTLS; in cleartext otherwise.
 */
export async function startGarbageUpstream(tls?: {
  certFile: string;
  keyFile: string;
}): Promise<GarbageUpstream> {
  const marker = 'garbage-upstream-7f3a';
  const answer = (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body>${marker}: this is not gRPC</body></html>`);
  };
  const server = tls
    ? http2.createSecureServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, answer)
    : http2.createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    marker,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}
