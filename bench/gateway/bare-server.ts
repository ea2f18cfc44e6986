// The baseline of the gateway benchmark: a bare node:http server, in its own process like the
// gateway, answering every request with exactly the gateway's GET /v1/schemes bytes.
// Started by bench/gateway/index.ts with BODY_FILE and CONTENT_TYPE; reports its port over IPC.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const body = readFileSync(process.env.BODY_FILE ?? '');
const contentType = process.env.CONTENT_TYPE ?? 'application/json';
const headers = { 'content-type': contentType, 'content-length': String(body.length) };

const server = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});

process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
