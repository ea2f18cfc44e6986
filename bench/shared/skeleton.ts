// What the skeletons share (bench/README.md "resolve", "pay"): bare @grpc/grpc-js unary servers
// and clients (the transport our services use, without interceptors or channelz) whose messages
// cross the wire as raw bytes or, where a skeleton carries our contract, as our generated protobuf
// messages (@bufbuild/protobuf `toBinary` / `fromBinary` as the serializers), and the decoded QR
// their decoders answer.
import { type DescMessage, fromBinary, type MessageShape, toBinary } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';

const NO_CHANNELZ = { 'grpc.enable_channelz': 0 };

/** How one side of a method crosses the wire: grpc-js's serializer and deserializer. */
export interface Codec<T> {
  serialize(value: T): Buffer;
  deserialize(bytes: Buffer): T;
}

/** A unary method: its full path and its request's and answer's codecs. */
export interface UnaryMethod<Req, Res> {
  path: string;
  request: Codec<Req>;
  response: Codec<Res>;
}

const RAW: Codec<Buffer> = { serialize: (bytes) => bytes, deserialize: (bytes) => bytes };

/** A method whose messages are raw bytes. */
export const rawMethod = (path: string): UnaryMethod<Buffer, Buffer> => ({
  path,
  request: RAW,
  response: RAW,
});

/** The bytes as a Buffer, without a copy. */
export const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function protobufCodec<S extends DescMessage>(schema: S): Codec<MessageShape<S>> {
  return {
    serialize: (message) => bufferOf(toBinary(schema, message)),
    deserialize: (bytes) => fromBinary(schema, bytes),
  };
}

/** A method whose messages are our generated protobuf messages, in binary. */
export function protobufMethod<I extends DescMessage, O extends DescMessage>(
  path: string,
  input: I,
  output: O,
): UnaryMethod<MessageShape<I>, MessageShape<O>> {
  return { path, request: protobufCodec(input), response: protobufCodec(output) };
}

/** A method and its handler, ready to be served. */
export type ServedMethod = (server: grpc.Server) => void;

export function unaryHandler<Req, Res>(
  method: UnaryMethod<Req, Res>,
  handler: grpc.handleUnaryCall<Req, Res>,
): ServedMethod {
  return (server) =>
    server.register(method.path, handler, method.response.serialize, method.request.deserialize, 'unary');
}

/** Serves the methods on 127.0.0.1:`port`. */
export function serveUnary(port: number, methods: ServedMethod[]): void {
  const server = new grpc.Server(NO_CHANNELZ);
  for (const register of methods) register(server);
  server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) throw err;
  });
}

export type UnaryClient = <Req, Res>(
  method: UnaryMethod<Req, Res>,
  request: Req,
  deadlineMs: number,
) => Promise<Res>;

/** A caller of unary methods on 127.0.0.1:`port`, one channel for all its calls. */
export function unaryClient(port: number): UnaryClient {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), NO_CHANNELZ);
  return (method, request, deadlineMs) =>
    new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        method.path,
        method.request.serialize,
        method.response.deserialize,
        request,
        new grpc.Metadata(),
        { deadline: Date.now() + deadlineMs },
        (err, response) => (err || !response ? reject(err) : resolve(response)),
      );
    });
}

export type BareUnaryHandler = grpc.handleUnaryCall<Buffer, Buffer>;

/** Serves raw-bytes unary methods (full path → handler) on 127.0.0.1:`port`. */
export function serveBareUnary(port: number, methods: Record<string, BareUnaryHandler>): void {
  serveUnary(
    port,
    Object.entries(methods).map(([path, handler]) => unaryHandler(rawMethod(path), handler)),
  );
}

/** A caller of raw-bytes unary methods on 127.0.0.1:`port`. */
export function bareUnaryClient(
  port: number,
): (path: string, request: Buffer, deadlineMs: number) => Promise<Buffer> {
  const call = unaryClient(port);
  return (path, request, deadlineMs) => call(rawMethod(path), request, deadlineMs);
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
