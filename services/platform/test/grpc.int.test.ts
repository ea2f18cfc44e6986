import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { BinaryReader } from '@bufbuild/protobuf/wire';
import * as grpcJs from '@grpc/grpc-js';
import { requestContext } from '@qr-payout/platform/context';
import { Code, ConnectError, readErrorDetail } from '@qr-payout/platform/errors';
import { closeGrpcClients, createGrpcClient, createGrpcServer } from '@qr-payout/platform/grpc';
import { silentLogger } from '@qr-payout/platform/log';
import {
  Health,
  HealthCheckRequestSchema,
  HealthCheckResponseSchema,
  HealthListRequestSchema,
  HealthListResponseSchema,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from '@qr-payout/proto/grpc/health/v1/health_pb';
import { ErrorDetailSchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import {
  DecodeRequestSchema,
  DecodeResponseSchema,
  DecoderService,
  ListSchemesRequestSchema,
  ListSchemesResponseSchema,
} from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { type Observed, registerFakeDecoder } from '@qr-payout/test-kit/fake-decoder';

type GrpcServer = ReturnType<typeof createGrpcServer>;

const DECODER = 'payout.decoder.v1.DecoderService';

function unary<I extends DescMessage, O extends DescMessage>(path: string, input: I, output: O) {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: (message: MessageInitShape<I>) => Buffer.from(toBinary(input, create(input, message))),
    requestDeserialize: (bytes: Buffer) => fromBinary(input, bytes),
    responseSerialize: (message: MessageInitShape<O>) =>
      Buffer.from(toBinary(output, create(output, message))),
    responseDeserialize: (bytes: Buffer) => fromBinary(output, bytes),
  };
}

// A plain @grpc/grpc-js client built from the protobuf-es descriptors: proves the wire format.
const RawClient = grpcJs.makeGenericClientConstructor(
  {
    Check: unary('/grpc.health.v1.Health/Check', HealthCheckRequestSchema, HealthCheckResponseSchema),
    List: unary('/grpc.health.v1.Health/List', HealthListRequestSchema, HealthListResponseSchema),
    ListSchemes: unary(`/${DECODER}/ListSchemes`, ListSchemesRequestSchema, ListSchemesResponseSchema),
    Decode: unary(`/${DECODER}/Decode`, DecodeRequestSchema, DecodeResponseSchema),
    Watch: {
      ...unary('/grpc.health.v1.Health/Watch', HealthCheckRequestSchema, HealthCheckResponseSchema),
      responseStream: true,
    },
  },
  'Raw',
);

// google.rpc.Status decoded by hand from its wire bytes (code = 1, message = 2, details = 3 as
// Any{type_url = 1, value = 2}): what any gRPC stack reading the rich error model sees.
function decodeRpcStatus(bytes: Uint8Array) {
  const reader = new BinaryReader(bytes);
  const status = { code: 0, message: '', details: [] as { typeUrl: string; value: Uint8Array }[] };
  while (reader.pos < reader.len) {
    const [field] = reader.tag();
    if (field === 1) status.code = reader.int32();
    else if (field === 2) status.message = reader.string();
    else if (field === 3) {
      const any = new BinaryReader(reader.bytes());
      const detail: { typeUrl: string; value: Uint8Array } = { typeUrl: '', value: new Uint8Array() };
      while (any.pos < any.len) {
        const [anyField] = any.tag();
        if (anyField === 1) detail.typeUrl = any.string();
        else detail.value = any.bytes();
      }
      status.details.push(detail);
    }
  }
  return status;
}

type RawCall = (
  req: unknown,
  md: grpcJs.Metadata,
  opts: grpcJs.CallOptions,
  cb: grpcJs.requestCallback<unknown>,
) => void;

function rawCall<T>(client: grpcJs.Client, method: string, req: unknown, deadlineMs = 2_000): Promise<T> {
  const fn = (client as unknown as Record<string, RawCall>)[method]!.bind(client);
  return new Promise((resolve, reject) =>
    fn(req, new grpcJs.Metadata(), { deadline: Date.now() + deadlineMs }, (err, res) =>
      err ? reject(err) : resolve(res as T),
    ),
  );
}

describe('gRPC server and client', () => {
  const observed: Observed = { requestIds: [] };
  let server: GrpcServer;
  let baseUrl: string;
  let raw: grpcJs.Client;

  beforeAll(async () => {
    server = createGrpcServer({
      serviceName: 'decoder',
      logger: silentLogger(),
      register: registerFakeDecoder(observed),
    });
    const port = await server.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${port}`;
    raw = new RawClient(`127.0.0.1:${port}`, grpcJs.credentials.createInsecure());
  });

  afterAll(async () => {
    raw.close();
    await closeGrpcClients();
    await server.close({ graceMs: 1_000 });
  });

  it('serves health Check and List to createGrpcClient', async () => {
    const health = createGrpcClient(Health, { baseUrl, timeoutMs: 2_000 });
    expect((await health.check({ service: '' })).status).toBe(ServingStatus.SERVING);
    expect((await health.check({ service: DECODER })).status).toBe(ServingStatus.SERVING);
    const list = await health.list({});
    // 'liveness': the name the chart's liveness probe asks for, SERVING until close.
    expect(Object.keys(list.statuses).sort()).toEqual(['', 'grpc.health.v1.Health', 'liveness', DECODER]);
    expect((await health.check({ service: 'liveness' })).status).toBe(ServingStatus.SERVING);
    await expect(health.check({ service: 'nope.v1.Nope' })).rejects.toMatchObject({ code: Code.NotFound });
  });

  it('serves a unary RPC to createGrpcClient and carries x-request-id', async () => {
    const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    const res = await requestContext.run({ requestId: 'req_from_gateway' }, () => decoder.listSchemes({}));
    expect(res.schemes.map((s) => s.id)).toEqual(['BR.PIX']);
    expect(observed.requestIds.at(-1)).toBe('req_from_gateway');
  });

  it('speaks the gRPC wire format to a plain @grpc/grpc-js client', async () => {
    const check = await rawCall<{ status: number }>(raw, 'Check', { service: DECODER });
    expect(check.status).toBe(ServingStatus.SERVING);
    const list = await rawCall<{ statuses: Record<string, { status: number }> }>(raw, 'List', {});
    expect(list.statuses['']?.status).toBe(ServingStatus.SERVING);
    const schemes = await rawCall<{ schemes: { id: string; currency: string }[] }>(raw, 'ListSchemes', {});
    expect(schemes.schemes).toMatchObject([{ id: 'BR.PIX', currency: 'BRL' }]);
    // With no x-request-id the server makes one up for its logs and handlers.
    expect(observed.requestIds.at(-1)).toMatch(/^req_[0-9A-Z]{26}$/);
  });

  it('delivers a serviceError with its ErrorDetail to the client', async () => {
    const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    const err = await decoder.decode({ qrString: 'bad' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect(readErrorDetail(err)).toEqual({
      tag: 'QrDecodeError',
      message: 'CRC mismatch: expected 1D3D, got 0000',
      field: 'qr_string',
      metadata: { expected_crc: '1D3D' },
      code: Code.InvalidArgument,
    });
  });

  it('sends a serviceError to a plain @grpc/grpc-js client in the standard rich error model', async () => {
    const err = (await rawCall(raw, 'Decode', { qrString: 'bad' }).catch(
      (e: unknown) => e,
    )) as grpcJs.ServiceError;
    expect(err.code).toBe(grpcJs.status.INVALID_ARGUMENT);
    expect(err.details).toBe('CRC mismatch: expected 1D3D, got 0000');
    const [bytes] = err.metadata.get('grpc-status-details-bin');
    const status = decodeRpcStatus(bytes as Buffer);
    expect(status.code).toBe(grpcJs.status.INVALID_ARGUMENT);
    expect(status.message).toBe('CRC mismatch: expected 1D3D, got 0000');
    expect(status.details.map((d) => d.typeUrl)).toEqual([
      'type.googleapis.com/payout.common.v1.ErrorDetail',
    ]);
    expect(fromBinary(ErrorDetailSchema, status.details[0]!.value)).toMatchObject({
      tag: 'QrDecodeError',
      field: 'qr_string',
      metadata: { expected_crc: '1D3D' },
    });
  });

  it('streams health Watch to a plain @grpc/grpc-js client and ends the call on its cancel', async () => {
    const service = 'watch.v1.Raw';
    server.health.setStatus(service, 'SERVING');
    const before = server.healthCallsInFlight();
    const watch = (
      raw as unknown as Record<string, (req: unknown) => grpcJs.ClientReadableStream<unknown>>
    ).Watch!.call(raw, { service });
    watch.on('error', () => {});
    const [first] = (await new Promise((resolve) => watch.once('data', (m) => resolve([m])))) as [
      { status: number },
    ];
    expect(first.status).toBe(ServingStatus.SERVING);
    expect(server.healthCallsInFlight()).toBe(before + 1);
    watch.cancel();
    for (let i = 0; i < 50 && server.healthCallsInFlight() > before; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(server.healthCallsInFlight()).toBe(before);
  });

  it('turns an unexpected error into Internal with nothing internal in it', async () => {
    const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    const err = ConnectError.from(await decoder.decode({ qrString: 'crash' }).catch((e: unknown) => e));
    expect(err.code).toBe(Code.Internal);
    expect(err.rawMessage).toBe('internal error');
    expect(readErrorDetail(err)).toBeUndefined();
  });

  it('turns a database that is down into Unavailable (the gateway’s 503), not Internal', async () => {
    const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    const err = ConnectError.from(await decoder.decode({ qrString: 'db-down' }).catch((e: unknown) => e));
    expect(err.code).toBe(Code.Unavailable);
    expect(err.rawMessage).toBe('database unavailable');
  });

  it('maps an exceeded deadline to DEADLINE_EXCEEDED, per call and by the client default', async () => {
    const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    const started = Date.now();
    await expect(decoder.decode({ qrString: 'hang' }, { timeoutMs: 100 })).rejects.toMatchObject({
      code: Code.DeadlineExceeded,
    });
    const shortDefault = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 150 });
    await expect(shortDefault.decode({ qrString: 'hang' })).rejects.toMatchObject({
      code: Code.DeadlineExceeded,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    const rawErr = await rawCall(raw, 'Decode', { qrString: 'hang' }, 100).catch(
      (e: grpcJs.ServiceError) => e,
    );
    expect((rawErr as grpcJs.ServiceError).code).toBe(grpcJs.status.DEADLINE_EXCEEDED);
  });

  it('streams health changes over Watch', async () => {
    const health = createGrpcClient(Health, { baseUrl, timeoutMs: 5_000 });
    const abort = new AbortController();
    const seen: ServingStatus[] = [];
    const service = 'watch.v1.Probe';
    server.health.setStatus(service, 'SERVING');
    // A watch is long-lived: no deadline (timeoutMs 0).
    for await (const res of health.watch({ service }, { signal: abort.signal, timeoutMs: 0 })) {
      seen.push(res.status);
      if (seen.length === 1) server.health.setStatus(service, 'NOT_SERVING');
      else break;
    }
    abort.abort();
    expect(seen).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
  });
});
