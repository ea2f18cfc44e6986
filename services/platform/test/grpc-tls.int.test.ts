// Mutual TLS on internal gRPC (docs/operators.md "Mutual TLS between services"): a server with
// GRPC_TLS_* serves only callers that present a certificate of its CA; the cleartext health port
// serves grpc.health.v1 alone; a renewed certificate is used without a restart; and the config
// refuses files that could not work.

import { X509Certificate } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import tls from 'node:tls';
import { create, toBinary } from '@bufbuild/protobuf';
import * as grpcJs from '@grpc/grpc-js';
import { loadConfig } from '@qr-payout/platform/config';
import { Code, ConnectError } from '@qr-payout/platform/errors';
import {
  closeGrpcClients,
  createGrpcClient,
  createGrpcServer,
  type GrpcTls,
  grpcServiceSettings,
} from '@qr-payout/platform/grpc';
import { silentLogger } from '@qr-payout/platform/log';
import {
  Health,
  HealthCheckRequestSchema,
  HealthCheckResponse_ServingStatus,
} from '@qr-payout/proto/grpc/health/v1/health_pb';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { registerFakeDecoder } from '@qr-payout/test-kit/fake-decoder';
import { rawUnaryCall } from '@qr-payout/test-kit/raw-grpc';
import { createTestCa, type TestCa } from '@qr-payout/test-kit/test-ca';

let ca: TestCa;
let otherCa: TestCa;
let serverTls: GrpcTls;
let clientTls: GrpcTls;
let server: ReturnType<typeof createGrpcServer>;
let port: number;
let healthPort: number;

const LOCAL = { dns: ['localhost'], ip: ['127.0.0.1'] };

beforeAll(async () => {
  ca = createTestCa('grpc-tls test CA');
  otherCa = createTestCa('another CA');
  // A copy the rotation test overwrites; short refresh so it is seen within the test.
  const issued = ca.issue('decoder', LOCAL);
  serverTls = { ...issued, refreshMs: 200 };
  clientTls = ca.issue('gateway', {});
  server = createGrpcServer({
    serviceName: 'decoder',
    logger: silentLogger(),
    tls: serverTls,
    register: registerFakeDecoder(),
  });
  port = await server.listen(0, '127.0.0.1');
  healthPort = await server.listenHealth(0, '127.0.0.1');
});

afterAll(async () => {
  await closeGrpcClients();
  await server.close({ graceMs: 0 });
  rmSync(ca.dir, { recursive: true, force: true });
  rmSync(otherCa.dir, { recursive: true, force: true });
});

const url = () => `http://127.0.0.1:${port}`;

/** Health/Check through a bare grpc-js client with the given credentials: its status code. */
const rawCheck = (target: string, credentials: grpcJs.ChannelCredentials) =>
  rawUnaryCall({
    target,
    path: `/${Health.typeName}/Check`,
    request: toBinary(HealthCheckRequestSchema, create(HealthCheckRequestSchema, { service: '' })),
    credentials,
    timeoutMs: 3_000,
  });

describe('a server with mTLS', () => {
  test('serves a caller presenting a certificate of its CA', async () => {
    const decoder = createGrpcClient(DecoderService, { baseUrl: url(), tls: clientTls, timeoutMs: 3_000 });
    const res = await decoder.listSchemes({});
    expect(res.schemes.length).toBeGreaterThan(0);
  });

  test('refuses a cleartext caller', async () => {
    const code = await rawCheck(`127.0.0.1:${port}`, grpcJs.credentials.createInsecure());
    expect(code).toBe(grpcJs.status.UNAVAILABLE);
  });

  test('refuses a TLS caller without a client certificate', async () => {
    const code = await rawCheck(`127.0.0.1:${port}`, grpcJs.credentials.createSsl(readFileSync(ca.caFile)));
    expect(code).toBe(grpcJs.status.UNAVAILABLE);
  });

  test('refuses a caller whose certificate another CA signed', async () => {
    const stranger = otherCa.issue('stranger', {});
    const credentials = grpcJs.credentials.createSsl(
      readFileSync(ca.caFile),
      readFileSync(stranger.keyFile),
      readFileSync(stranger.certFile),
    );
    expect(await rawCheck(`127.0.0.1:${port}`, credentials)).toBe(grpcJs.status.UNAVAILABLE);
  });

  test('the client refuses a server whose certificate does not name the host dialled', async () => {
    // localhost and 127.0.0.1 are its names; 127.0.0.2 is not one of them.
    const other = createGrpcServer({
      serviceName: 'decoder',
      logger: silentLogger(),
      tls: serverTls,
      register: registerFakeDecoder(),
    });
    const otherPort = await other.listen(0, '127.0.0.2');
    try {
      const decoder = createGrpcClient(DecoderService, {
        baseUrl: `http://127.0.0.2:${otherPort}`,
        tls: clientTls,
        timeoutMs: 3_000,
      });
      await expect(decoder.listSchemes({})).rejects.toMatchObject({ code: Code.Unavailable });
    } finally {
      await other.close({ graceMs: 0 });
    }
  });

  test('the client refuses a server whose certificate another CA signed', async () => {
    const impostorTls = otherCa.issue('impostor', LOCAL);
    const impostor = createGrpcServer({
      serviceName: 'decoder',
      logger: silentLogger(),
      tls: impostorTls,
      register: registerFakeDecoder(),
    });
    const impostorPort = await impostor.listen(0, '127.0.0.1');
    try {
      const decoder = createGrpcClient(DecoderService, {
        baseUrl: `http://127.0.0.1:${impostorPort}`,
        tls: clientTls,
        timeoutMs: 3_000,
      });
      const err = await decoder.listSchemes({}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectError);
      expect((err as ConnectError).code).toBe(Code.Unavailable);
    } finally {
      await impostor.close({ graceMs: 0 });
    }
  });

  test('the health port answers grpc.health.v1 in cleartext and nothing else', async () => {
    const health = createGrpcClient(Health, { baseUrl: `http://127.0.0.1:${healthPort}`, timeoutMs: 3_000 });
    const res = await health.check({ service: '' });
    expect(res.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    const decoder = createGrpcClient(DecoderService, {
      baseUrl: `http://127.0.0.1:${healthPort}`,
      timeoutMs: 3_000,
    });
    await expect(decoder.listSchemes({})).rejects.toMatchObject({ code: Code.Unimplemented });
  });

  test('a renewed certificate is presented to new connections without a restart', async () => {
    const servedSerial = () =>
      new Promise<string>((resolve, reject) => {
        const socket = tls.connect({
          host: '127.0.0.1',
          port,
          ca: readFileSync(ca.caFile),
          cert: readFileSync(clientTls.certFile),
          key: readFileSync(clientTls.keyFile),
          ALPNProtocols: ['h2'],
          servername: 'localhost',
        });
        socket.once('secureConnect', () => {
          resolve(socket.getPeerX509Certificate()!.serialNumber);
          socket.destroy();
        });
        socket.once('error', reject);
      });
    const before = await servedSerial();
    expect(before).toBe(new X509Certificate(readFileSync(serverTls.certFile)).serialNumber);
    const renewed = ca.issue('decoder', LOCAL);
    copyFileSync(renewed.keyFile, serverTls.keyFile);
    copyFileSync(renewed.certFile, serverTls.certFile);
    const expected = new X509Certificate(readFileSync(renewed.certFile)).serialNumber;
    const deadline = Date.now() + 5_000;
    let seen = before;
    while (seen !== expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await servedSerial();
    }
    expect(seen).toBe(expected);
  });
});

describe('GRPC_TLS_* config', () => {
  const load = (env: Record<string, string>) => () => loadConfig(grpcServiceSettings(0), env);
  const envOf = (files: { certFile: string; keyFile: string; caFile: string }) => ({
    GRPC_TLS_CERT_FILE: files.certFile,
    GRPC_TLS_KEY_FILE: files.keyFile,
    GRPC_TLS_CA_FILE: files.caFile,
  });

  test('all three files give mTLS; none gives cleartext', () => {
    const files = ca.issue('fx', LOCAL);
    expect(load(envOf(files))().grpcTls).toEqual(files);
    expect(load({})().grpcTls).toBeUndefined();
  });

  test('one or two of them is refused', () => {
    const files = ca.issue('fx', LOCAL);
    expect(load({ GRPC_TLS_CERT_FILE: files.certFile })).toThrow(
      'GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE and GRPC_TLS_CA_FILE must be set together (mTLS) or not at all',
    );
  });

  test('a missing file is named', () => {
    const files = ca.issue('fx', LOCAL);
    expect(load(envOf({ ...files, caFile: '/nonexistent/ca.crt' }))).toThrow(
      'GRPC_TLS_CA_FILE: cannot read /nonexistent/ca.crt (ENOENT)',
    );
  });

  test('a key that is not the certificate’s is refused', () => {
    const files = ca.issue('fx', LOCAL);
    const other = ca.issue('webhook', LOCAL);
    expect(load(envOf({ ...files, keyFile: other.keyFile }))).toThrow(
      `GRPC_TLS_KEY_FILE: ${other.keyFile} is not the key of the certificate in ${files.certFile}`,
    );
  });

  test('a certificate another CA signed is refused', () => {
    const files = otherCa.issue('fx', LOCAL);
    expect(load(envOf({ ...files, caFile: ca.caFile }))).toThrow(
      `GRPC_TLS_CERT_FILE: the certificate in ${files.certFile} is not signed by a CA of ${ca.caFile}`,
    );
  });

  test('a certificate that may not serve as a client certificate is refused', () => {
    const files = ca.issue('fx', LOCAL, ['serverAuth']);
    expect(load(envOf(files))).toThrow('must allow both server and client authentication');
  });

  test('a file without a certificate is refused', () => {
    const files = ca.issue('fx', LOCAL);
    expect(load(envOf({ ...files, certFile: files.keyFile }))).toThrow(
      `GRPC_TLS_CERT_FILE: ${files.keyFile} holds no certificate`,
    );
  });
});
