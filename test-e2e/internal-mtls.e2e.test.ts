// Mutual TLS between the services (docs/operators.md "Mutual TLS between services"), end to end:
// every process of the system runs with a certificate of the run's CA (the harness's default).
// A caller without one, with one another CA signed, or in cleartext reaches neither payout's Pay
// nor the webhook service's admin RPCs; the test's own certificate does. The cleartext health port
// answers grpc.health.v1 and nothing else. The rest of the e2e suite paying through the gateway
// shows the system works with mTLS on.
import { readFileSync, rmSync } from 'node:fs';
import { create, toBinary } from '@bufbuild/protobuf';
import * as grpcJs from '@grpc/grpc-js';
import { Code } from '@qr-payout/platform/errors';
import { createGrpcClient } from '@qr-payout/platform/grpc';
import { Health, HealthCheckResponse_ServingStatus } from '@qr-payout/proto/grpc/health/v1/health_pb';
import { PayoutService, PayRequestSchema } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { ListEndpointsRequestSchema, WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { rawUnaryCall } from '@qr-payout/test-kit/raw-grpc';
import { createTestCa } from '@qr-payout/test-kit/test-ca';
import { type System, startSystem } from './harness';

jest.setTimeout(120_000);

let system: System;

beforeAll(async () => {
  system = await startSystem();
}, 240_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

/** A unary call through a bare grpc-js client with these credentials: its status code. */
const rawCall = (target: string, path: string, request: Uint8Array, credentials: grpcJs.ChannelCredentials) =>
  rawUnaryCall({ target, path, request, credentials });

const PAY = {
  path: `/${PayoutService.typeName}/Pay`,
  body: () => toBinary(PayRequestSchema, create(PayRequestSchema, { tenantId: 'ten_mtls_probe' })),
};
const LIST_ENDPOINTS = {
  path: `/${WebhookService.typeName}/ListEndpoints`,
  body: () => toBinary(ListEndpointsRequestSchema, create(ListEndpointsRequestSchema, { tenantId: 'ten_x' })),
};

describe.each([
  ['payout Pay', () => system.serviceUrls.payout, PAY],
  ['webhook admin ListEndpoints', () => system.serviceUrls.webhook, LIST_ENDPOINTS],
])('%s', (_name, target, rpc) => {
  test('in cleartext: refused', async () => {
    const code = await rawCall(target(), rpc.path, rpc.body(), grpcJs.credentials.createInsecure());
    expect(code).toBe(grpcJs.status.UNAVAILABLE);
  });

  test('over TLS without a client certificate: refused', async () => {
    const credentials = grpcJs.credentials.createSsl(readFileSync(system.grpcTls!.caFile));
    expect(await rawCall(target(), rpc.path, rpc.body(), credentials)).toBe(grpcJs.status.UNAVAILABLE);
  });

  test('with a client certificate another CA signed: refused', async () => {
    const stranger = createTestCa('a stranger CA');
    try {
      const files = stranger.issue('attacker', {});
      const credentials = grpcJs.credentials.createSsl(
        readFileSync(system.grpcTls!.caFile),
        readFileSync(files.keyFile),
        readFileSync(files.certFile),
      );
      expect(await rawCall(target(), rpc.path, rpc.body(), credentials)).toBe(grpcJs.status.UNAVAILABLE);
    } finally {
      rmSync(stranger.dir, { recursive: true, force: true });
    }
  });

  test("with a certificate of the run's CA: the call reaches the service", async () => {
    const credentials = grpcJs.credentials.createSsl(
      readFileSync(system.grpcTls!.caFile),
      readFileSync(system.grpcTls!.keyFile),
      readFileSync(system.grpcTls!.certFile),
    );
    const code = await rawCall(target(), rpc.path, rpc.body(), credentials);
    // The service answered: with its own verdict on the request, never the transport's.
    expect(code).not.toBe(grpcJs.status.UNAVAILABLE);
    expect(code).not.toBe(grpcJs.status.UNIMPLEMENTED);
  });
});

test('the health port answers grpc.health.v1 in cleartext, and no other service', async () => {
  const healthUrl = system.replicas('payout')[0]!.healthUrl!;
  const health = createGrpcClient(Health, { baseUrl: healthUrl, timeoutMs: 3_000 });
  expect((await health.check({ service: '' })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  const payout = createGrpcClient(PayoutService, { baseUrl: healthUrl, timeoutMs: 3_000 });
  await expect(payout.listRailLimits({})).rejects.toMatchObject({ code: Code.Unimplemented });
});

test("the platform's client with the run's certificate reads from payout", async () => {
  const payout = createGrpcClient(PayoutService, {
    baseUrl: system.serviceUrls.payout,
    tls: system.grpcTls,
    timeoutMs: 5_000,
  });
  const res = await payout.listRailLimits({});
  expect(res.limits.length).toBeGreaterThan(0);
});
