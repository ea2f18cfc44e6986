import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import * as grpc from '@grpc/grpc-js';
import { readErrorDetail } from '@qr-payout/platform/errors';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { Health, HealthCheckResponse_ServingStatus } from '@qr-payout/proto/grpc/health/v1/health_pb';
import {
  AccountType,
  type DecodeRequest,
  DecodeRequestSchema,
  type DecodeResponse,
  DecodeResponseSchema,
  DecoderService,
  type ListSchemesRequest,
  ListSchemesRequestSchema,
  type ListSchemesResponse,
  ListSchemesResponseSchema,
  PointOfInitiation,
} from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { dynamicPixQr, staticPixQr } from '@qr-payout/test-kit/qrs';
import { serviceEnv } from '@qr-payout/test-kit/service';
import { loadDecoderConfig, type RunningDecoder, SCHEME_CATALOGUE, startDecoder } from '../src/index';

// Dynamic Pix locations on this host go over plain http; nothing listens on port 9, so a fetch
// there fails for real (no stand-in fetcher over gRPC).
const env = serviceEnv({ PIX_LOCATION_HTTP_HOSTS: '127.0.0.1:9', PIX_LOCATION_TIMEOUT_MS: '2000' });

const STATIC_PIX = staticPixQr({
  key: 'pagamentos@loja.com.br',
  amount: '12.50',
  name: 'LOJA DO TESTE',
  city: 'SAO PAULO',
  txid: 'PEDIDO42',
});

const UNREACHABLE_DYNAMIC_PIX = dynamicPixQr({
  location: '127.0.0.1:9/qr/v2/cobv1',
  name: 'LOJA DO TESTE',
  city: 'SAO PAULO',
});

// A real Redeban Bre-B code (test/fixtures/qr-vectors.jsonl): key type 02 (mobile), 5000.00 COP.
const BREB =
  '00020101021126320014CO.COM.RBM.LLA0210313874406649250014CO.COM.RBM.RED0103RBM50310013CO.COM.RBM.CU0110000000000051220013CO.COM.RBM.CA0101052040000530317054075000.005802CO59010600106101062270710CC3D75AE64080200110363180270016CO.COM.RBM.CANAL0103APP81250015CO.COM.RBM.CIVA01020282260014CO.COM.RBM.IVA01040.0083270015CO.COM.RBM.BASE01040.0084250015CO.COM.RBM.CINC01020285260014CO.COM.RBM.INC01040.0090430016CO.COM.RBM.TRXID0119000002FSStDLs2ndrBr91460014CO.COM.RBM.SEC0124eXnV6BwgdGNLszxps5ijFyfR6304A413';

describe('decoder over gRPC', () => {
  let decoder: RunningDecoder;
  let baseUrl: string;

  beforeAll(async () => {
    decoder = await startDecoder(loadDecoderConfig(env));
    baseUrl = decoder.url;
  });

  afterAll(async () => {
    await closeGrpcClients();
    await decoder.stop();
  });

  it('listens on a free port and answers grpc.health.v1.Health for the server and DecoderService', async () => {
    expect(decoder.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
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
  });

  it('decodes a static Pix code through the platform client', async () => {
    const client = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    const { decoded } = await client.decode({ qrString: STATIC_PIX });
    expect(decoded).toMatchObject({
      schemeId: 'BR.PIX',
      country: 'BR',
      currency: 'BRL',
      amount: { currency: 'BRL', amountMinor: 1250n },
      rail: 'pix',
      pointOfInitiation: PointOfInitiation.STATIC,
      creditor: {
        name: 'LOJA DO TESTE',
        account: 'pagamentos@loja.com.br',
        accountType: AccountType.EMAIL,
        city: 'SAO PAULO',
      },
      references: { txid: 'PEDIDO42', pix_key_type: 'email' },
      confidence: 1,
    });
    expect(decoded?.confidenceFactors.map((factor) => factor.name)).toEqual([
      'crc_valid',
      'mandatory_tags',
      'identifiers_valid',
      'known_identifier',
      'country_currency_consistent',
      'account_in_clear',
    ]);
  });

  it('answers INVALID_ARGUMENT with a QrDecodeError detail naming expected and actual CRC', async () => {
    const client = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    const forged = `${STATIC_PIX.slice(0, -4)}0000`;
    const error = await client.decode({ qrString: forged }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(readErrorDetail(error)).toMatchObject({
      code: Code.InvalidArgument,
      tag: 'QrDecodeError',
      field: 'qr_string',
      metadata: { expected_crc: STATIC_PIX.slice(-4), actual_crc: '0000' },
    });
  });

  it('answers UNAVAILABLE with a QrLocationUnavailable detail for a dynamic Pix code whose PSP does not answer', async () => {
    const client = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 5_000 });
    const error = await client.decode({ qrString: UNREACHABLE_DYNAMIC_PIX }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(readErrorDetail(error)).toMatchObject({
      code: Code.Unavailable,
      tag: 'QrLocationUnavailable',
      field: 'qr_string',
      metadata: { reason: 'location_unreachable', location_host: '127.0.0.1:9' },
    });
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
    const client = new Client(new URL(decoder.url).host, grpc.credentials.createInsecure());
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
      expect(response.schemes.every((scheme) => scheme.rail !== '')).toBe(true);
    } finally {
      client.close();
    }
  });
});

describe('Decode over plain gRPC', () => {
  let decoder: RunningDecoder;

  beforeAll(async () => {
    decoder = await startDecoder(loadDecoderConfig(env));
  });

  afterAll(() => decoder.stop());

  it('a @grpc/grpc-js client gets a DecodedQr for a Bre-B code', async () => {
    const client = new grpc.Client(new URL(decoder.url).host, grpc.credentials.createInsecure());
    try {
      const response = await new Promise<DecodeResponse>((resolve, reject) => {
        client.makeUnaryRequest(
          `/${DecoderService.typeName}/Decode`,
          (message: DecodeRequest) => Buffer.from(toBinary(DecodeRequestSchema, message)),
          (bytes: Buffer) => fromBinary(DecodeResponseSchema, bytes),
          create(DecodeRequestSchema, { qrString: BREB }),
          { deadline: new Date(Date.now() + 2_000) },
          (err, value) => (err || !value ? reject(err ?? new Error('no response')) : resolve(value)),
        );
      });
      expect(response.decoded).toMatchObject({
        schemeId: 'CO.BREB',
        currency: 'COP',
        amount: { amountMinor: 500000n },
        creditor: { account: '3138744066', accountType: AccountType.PHONE },
        channel: 'APP',
      });
    } finally {
      client.close();
    }
  });
});

describe('decoder shutdown', () => {
  it('stops serving after close, and close can be called twice', async () => {
    const decoder = await startDecoder(loadDecoderConfig(env));
    const baseUrl = decoder.url;
    const client = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 1_000 });
    await client.listSchemes({});
    await Promise.all([decoder.stop(), decoder.stop()]);
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
