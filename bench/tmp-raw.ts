import http2 from 'node:http2';
import { createClient } from '@connectrpc/connect';
import { connectNodeAdapter, createGrpcTransport } from '@connectrpc/connect-node';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';

async function main() {
  const handler = connectNodeAdapter({ grpc: true, connect: false, grpcWeb: false, routes: (r) => r.service(DecoderService, {
    async decode() { return { decoded: { schemeId: 'BR.PIX', country: 'BR', currency: 'BRL' } }; },
    async listSchemes() { return { schemes: [] }; } }) });
  const server = http2.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const c = createClient(DecoderService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }));
  await c.decode({ qrString: 'x' });
  const end = Date.now() + 5000; let n = 0; const lat: number[] = [];
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (Date.now() < end) { const t = performance.now(); await c.decode({ qrString: 'x' }); lat.push(performance.now() - t); n++; }
  }));
  lat.sort((a, b) => a - b);
  console.log(`raw connect: calls/s ${(n / 5).toFixed(0)} p50 ${lat[Math.floor(lat.length * 0.5)]!.toFixed(2)} p99 ${lat[Math.floor(lat.length * 0.99)]!.toFixed(2)}`);
  process.exit(0);
}
main();
