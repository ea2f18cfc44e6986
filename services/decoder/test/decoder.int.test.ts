import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import * as grpc from '@grpc/grpc-js';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform';
import { Health, HealthCheckResponse_ServingStatus } from '@qr-payout/proto/grpc/health/v1/health_pb';
import {
  DecoderService,
  type ListSchemesRequest,
  ListSchemesRequestSchema,
  type ListSchemesResponse,
  ListSchemesResponseSchema,
} from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { type RunningDecoder, SCHEME_CATALOGUE, startDecoder } from '../src/index';

const env = { GRPC_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' };

describe('decoder over gRPC', () => {
  let decoder: RunningDecoder;
  let baseUrl: string;

  beforeAll(async () => {
    decoder = await startDecoder(env);
    baseUrl = `http://127.0.0.1:${decoder.grpcPort}`;
  });

  afterAll(async () => {
    await closeGrpcClients();
    await decoder.close();
  });

  it('listens on a free port and answers grpc.health.v1.Health for the server and DecoderService', async () => {
    expect(decoder.grpcPort).toBeGreaterThan(0);
    const health = createGrpcClient(Health, { baseUrl, timeoutMs: 2_000 });
    for (const service of ['', DecoderService.typeName]) {
      const { status } = await health.check({ service });
      expect({ service, status }).toEqual({ service, status: HealthCheckResponse_ServingStatus.SERVING });
    }
  });

  it('lists the scheme catalogue through the platform client', async () => {
    const client = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    const { schemes } = await client.listSchemes({});
    expect(schemes.map((scheme) => scheme.id)).toEqual(SCHEME_CATALOGUE.map((entry) => entry.id));
    const pix = schemes.find((scheme) => scheme.id === 'BR.PIX');
    expect(pix).toMatchObject({
      country: 'BR',
      currency: 'BRL',
      rail: 'pix',
      qrTypes: ['static', 'dynamic'],
    });
    expect(pix?.requiredPayerFields.map((f) => f.field)).toEqual([
      'payer_name',
      'payer_account',
      'payer_tax_id',
    ]);
  });

  it('answers UNIMPLEMENTED for Decode, which a later issue brings', async () => {
    const client = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    const error = await client.decode({ qrString: '000201' }).then(
      () => undefined,
      (err: unknown) => ConnectError.from(err),
    );
    expect(error?.code).toBe(Code.Unimplemented);
  });

  it('speaks plain gRPC: a @grpc/grpc-js generic client with protobuf-es serializers lists the schemes', async () => {
    const Client = grpc.makeGenericClientConstructor(
      {
        listSchemes: {
          path: `/${DecoderService.typeName}/ListSchemes`,
          requestStream: false,
          responseStream: false,
          requestSerialize: (message: ListSchemesRequest) =>
            Buffer.from(toBinary(ListSchemesRequestSchema, message)),
          requestDeserialize: (bytes: Buffer) => fromBinary(ListSchemesRequestSchema, bytes),
          responseSerialize: (message: ListSchemesResponse) =>
            Buffer.from(toBinary(ListSchemesResponseSchema, message)),
          responseDeserialize: (bytes: Buffer) => fromBinary(ListSchemesResponseSchema, bytes),
        },
      },
      'DecoderService',
    );
    const client = new Client(`127.0.0.1:${decoder.grpcPort}`, grpc.credentials.createInsecure());
    try {
      const response = await new Promise<ListSchemesResponse>((resolve, reject) => {
        const deadline = new Date(Date.now() + 2_000);
        client.makeUnaryRequest(
          `/${DecoderService.typeName}/ListSchemes`,
          (message: ListSchemesRequest) => Buffer.from(toBinary(ListSchemesRequestSchema, message)),
          (bytes: Buffer) => fromBinary(ListSchemesResponseSchema, bytes),
          create(ListSchemesRequestSchema),
          { deadline },
          (err, value) => (err || !value ? reject(err ?? new Error('no response')) : resolve(value)),
        );
      });
      expect(response.schemes.map((scheme) => scheme.id)).toEqual(SCHEME_CATALOGUE.map((entry) => entry.id));
      expect(response.schemes.every((scheme) => scheme.requiredPayerFields.length === 3)).toBe(true);
    } finally {
      client.close();
    }
  });
});

describe('decoder shutdown', () => {
  it('stops serving after close, and close can be called twice', async () => {
    const decoder = await startDecoder(env);
    const baseUrl = `http://127.0.0.1:${decoder.grpcPort}`;
    const client = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 1_000 });
    await client.listSchemes({});
    await Promise.all([decoder.close(), decoder.close()]);
    await closeGrpcClients();
    const after = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 1_000 });
    const error = await after.listSchemes({}).then(
      () => undefined,
      (err: unknown) => ConnectError.from(err),
    );
    // The listener is gone: the connection is refused (connect-node reports it as INTERNAL).
    expect((error?.cause as NodeJS.ErrnoException | undefined)?.code).toBe('ECONNREFUSED');
    await closeGrpcClients();
  });
});
