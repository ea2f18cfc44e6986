// The two sides of the gRPC bench: the platform's createGrpcServer/createGrpcClient, and a bare
// @grpc/grpc-js server and client, serving the same DecoderService/Decode on the same messages.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import { closeGrpcClients, createGrpcClient, createGrpcServer, type GrpcTls } from '@qr-payout/platform/grpc';
import { createLogger } from '@qr-payout/platform/log';
import {
  type DecodeRequest,
  DecodeRequestSchema,
  type DecodeResponse,
  DecodeResponseSchema,
  DecoderService,
} from '@qr-payout/proto/payout/decoder/v1/decoder_pb';

export interface Target {
  readonly name: string;
  /** One unary call; rejects on any failure. */
  call(): Promise<unknown>;
  close(): Promise<void>;
}

const PIX =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

/** The request both clients send and the response both servers answer, built once. */
export const REQUEST: DecodeRequest = create(DecodeRequestSchema, { qrString: PIX });
const RESPONSE: DecodeResponse = create(DecodeResponseSchema, {
  decoded: {
    schemeId: 'BR.PIX',
    country: 'BR',
    currency: 'BRL',
    rail: 'pix',
    confidence: 0.98,
    creditor: { name: 'Fulano de Tal', account: '123e4567-e12b-12d1-a456-426655440000', city: 'BRASILIA' },
  },
});

const DECODE_PATH = `/${DecoderService.typeName}/${DecoderService.method.decode.name}`;
const toBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * createGrpcServer + createGrpcClient with their interceptors; logs at warn (no call lines). With
 * `tls`, both sides use it: mutual TLS, one connection (docs/operators.md "Mutual TLS between
 * services").
 */
export async function platformTarget(tls?: GrpcTls): Promise<Target> {
  const server = createGrpcServer({
    serviceName: 'bench-decoder',
    logger: createLogger({ service: 'bench-decoder', level: 'warn' }),
    tls,
    register: (router) =>
      router.service(DecoderService, {
        decode: async () => RESPONSE,
        listSchemes: async () => ({}),
      }),
  });
  const port = await server.listen(0, '127.0.0.1');
  const client = createGrpcClient(DecoderService, {
    baseUrl: `http://127.0.0.1:${port}`,
    timeoutMs: 5_000,
    tls,
  });
  return {
    name: tls ? 'platform mTLS' : 'platform',
    call: () => client.decode(REQUEST),
    async close() {
      await closeGrpcClients();
      await server.close({ graceMs: 1_000 });
    },
  };
}

/** A bare grpc-js server and client with the same protobuf-es (de)serialization, deadline and channelz setting. */
export async function rawGrpcJsTarget(): Promise<Target> {
  const server = new grpc.Server();
  server.register<DecodeRequest, DecodeResponse>(
    DECODE_PATH,
    (
      _call: grpc.ServerUnaryCall<DecodeRequest, DecodeResponse>,
      callback: grpc.sendUnaryData<DecodeResponse>,
    ) => callback(null, RESPONSE),
    (message) => toBuffer(toBinary(DecodeResponseSchema, message)),
    (bytes) => fromBinary(DecodeRequestSchema, bytes),
    'unary',
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  // channelz off on the client, as the platform's channels have it: the ratio then measures the
  // platform's own work per call, not a transport setting.
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    'grpc.enable_channelz': 0,
  });
  const serialize = (message: DecodeRequest) => toBuffer(toBinary(DecodeRequestSchema, message));
  const deserialize = (bytes: Buffer) => fromBinary(DecodeResponseSchema, bytes);
  return {
    name: 'raw grpc-js',
    call: () =>
      new Promise((resolve, reject) =>
        client.makeUnaryRequest(
          DECODE_PATH,
          serialize,
          deserialize,
          REQUEST,
          new grpc.Metadata(),
          { deadline: Date.now() + 5_000 },
          (err, res) => (err ? reject(err) : resolve(res)),
        ),
      ),
    async close() {
      client.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}
