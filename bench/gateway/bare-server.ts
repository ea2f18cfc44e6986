// The baseline of the gateway benchmark: a bare node:http server, in its own process like the
// gateway, answering every request with the gateway's GET /v1/schemes body. Like the gateway it
// makes that body per request: the catalogue text serialized once at start, a fresh request id
// spliced in (docs/api/resources.md "Request ids": every response carries its own), sent as a
// string with x-request-id. Started by bench/gateway/index.ts with BODY_FILE (one real gateway
// body) and CONTENT_TYPE; reports its port over IPC.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const sample = readFileSync(process.env.BODY_FILE ?? '', 'utf8');
const contentType = process.env.CONTENT_TYPE ?? 'application/json';
const { schemes, request_id: sampleId } = JSON.parse(sample) as { schemes: unknown; request_id: string };
const head = `{"schemes":${JSON.stringify(schemes)},"request_id":"`;
const bodyOf = (requestId: string) => `${head}${requestId}"}`;
// Same bytes as the gateway's, or the comparison means nothing.
if (bodyOf(sampleId) !== sample) throw new Error('bare server body differs from the gateway body');

const server = http.createServer((req, res) => {
  req.resume();
  const requestId = randomUUID();
  const body = bodyOf(requestId);
  res.writeHead(200, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
  });
  res.end(body);
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});

process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
