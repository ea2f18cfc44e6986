// What the skeletons share (bench/README.md "resolve", "pay"): bare @grpc/grpc-js unary servers
// and clients over raw bytes (the transport our services use, without protobuf, interceptors or
// channelz), and the decoded QR their decoder answers.
import * as grpc from '@grpc/grpc-js';

const identity = (bytes: Buffer) => bytes;
const NO_CHANNELZ = { 'grpc.enable_channelz': 0 };

export type BareUnaryHandler = grpc.handleUnaryCall<Buffer, Buffer>;

/** Serves the unary methods (full path → handler) on 127.0.0.1:`port`. */
export function serveBareUnary(port: number, methods: Record<string, BareUnaryHandler>): void {
  const server = new grpc.Server(NO_CHANNELZ);
  for (const [path, handler] of Object.entries(methods))
    server.register(path, handler, identity, identity, 'unary');
  server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) throw err;
  });
}

/** A caller of unary methods on 127.0.0.1:`port`, one channel for all its calls. */
export function bareUnaryClient(
  port: number,
): (path: string, request: Buffer, deadlineMs: number) => Promise<Buffer> {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), NO_CHANNELZ);
  return (path, request, deadlineMs) =>
    new Promise<Buffer>((resolve, reject) => {
      client.makeUnaryRequest(
        path,
        identity,
        identity,
        request,
        new grpc.Metadata(),
        { deadline: Date.now() + deadlineMs },
        (err, response) => (err || !response ? reject(err) : resolve(response)),
      );
    });
}

/** About the size of our DecodedQr for a static Pix QR: what the skeletons' decoder answers. */
export const SKELETON_DECODED_QR = Buffer.from(
  JSON.stringify({
    schemeId: 'BR.PIX',
    country: 'BR',
    rail: 'pix',
    currency: 'BRL',
    amountMinor: '1050',
    creditor: { name: 'PADARIA PAO DOURADO LTDA', account: '123e4567-e12b-12d1-a456-426655440000' },
    merchantCity: 'SAO PAULO',
    reference: 'PAG123456789',
    confidence: 0.95,
  }),
);
