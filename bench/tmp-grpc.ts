import { startDecoder } from '@qr-payout/decoder';
import { createGrpcClient, closeGrpcClients } from '@qr-payout/platform';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';

const QR = '00020126650014br.gov.bcb.pix0119nubank@thalesog.com0220Gerado por Pix-Utils52040000530398654041.005802BR5914Thales Ogliari6009Sao Paulo62070503***63046069';
async function main() {
  const d = await startDecoder({ GRPC_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.LL ?? 'warn' });
  const c = createGrpcClient(DecoderService, { baseUrl: `http://127.0.0.1:${d.grpcPort}` });
  await c.decode({ qrString: QR });
  const end = Date.now() + 5000; let n = 0; const lat: number[] = [];
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (Date.now() < end) { const t = performance.now(); await c.decode({ qrString: QR }); lat.push(performance.now() - t); n++; }
  }));
  lat.sort((a, b) => a - b);
  console.log(`calls/s ${(n / 5).toFixed(0)} p50 ${lat[Math.floor(lat.length * 0.5)]!.toFixed(2)} p99 ${lat[Math.floor(lat.length * 0.99)]!.toFixed(2)}`);
  await closeGrpcClients(); await d.close();
}
main();
