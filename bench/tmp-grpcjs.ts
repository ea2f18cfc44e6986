import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { DecodeRequestSchema, DecodeResponseSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';

const def = { decode: { path: '/payout.decoder.v1.DecoderService/Decode', requestStream: false, responseStream: false,
  requestSerialize: (m: any) => Buffer.from(toBinary(DecodeRequestSchema, m)), requestDeserialize: (b: Buffer) => fromBinary(DecodeRequestSchema, b),
  responseSerialize: (m: any) => Buffer.from(toBinary(DecodeResponseSchema, m)), responseDeserialize: (b: Buffer) => fromBinary(DecodeResponseSchema, b) } };
async function main() {
  const server = new grpc.Server();
  server.addService(def as any, { decode: (_call: any, cb: any) => cb(null, create(DecodeResponseSchema, { decoded: { schemeId: 'BR.PIX', country: 'BR', currency: 'BRL' } })) });
  const port = await new Promise<number>((r, j) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => e ? j(e) : r(p)));
  const Client = grpc.makeGenericClientConstructor(def as any, 'DecoderService');
  const c: any = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = () => new Promise((r, j) => c.decode(create(DecodeRequestSchema, { qrString: 'x' }), { deadline: Date.now() + 5000 }, (e: any, v: any) => e ? j(e) : r(v)));
  await call();
  const end = Date.now() + 5000; let n = 0; const lat: number[] = [];
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (Date.now() < end) { const t = performance.now(); await call(); lat.push(performance.now() - t); n++; }
  }));
  lat.sort((a, b) => a - b);
  console.log(`raw grpc-js: calls/s ${(n / 5).toFixed(0)} p50 ${lat[Math.floor(lat.length * 0.5)]!.toFixed(2)} p99 ${lat[Math.floor(lat.length * 0.99)]!.toFixed(2)}`);
  process.exit(0);
}
main();
