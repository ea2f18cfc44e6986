import { randomBytes } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { loadGatewayConfig, startGateway } from '@qr-payout/gateway';
import { closeGrpcClients, createGrpcServer } from '@qr-payout/platform/grpc';
import { createLogger } from '@qr-payout/platform/log';
import { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { createAdminClient } from '@qr-payout/test-kit/admin';
import { freePort } from '../src/free-port';
import { baseEnv, spawnTs } from './child-process';

// For the sandbox's 500 check: a gateway on the sandbox's embedded infrastructure (PGlite through
// pglite-socket, memory rate limits) whose DECODER_URL is an HTTP/2 server that is not gRPC.
// The webhook service is a stub that only hands out signing secrets, which tenant creation needs.

export type GarbageGateway = {
  baseUrl: string;
  apiKey: string;
  /** Text every garbage answer carries, so a test can prove none of it reaches the client. */
  marker: string;
  close(): Promise<void>;
};

const MARKER = 'garbage-upstream-5c1d';

async function startGarbageUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http2.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body>${MARKER}: this is not gRPC</body></html>`);
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

export async function startGarbageGateway(): Promise<GarbageGateway> {
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const database = spawnTs('sandbox/test/fixtures/embedded-postgres-server.ts', baseEnv(), [
      '-',
      'gateway',
    ]);
    closers.push(() => database.stop());
    const ready = await database.waitForLine(/^\{"ready":true.*\}$/, 90_000);
    const databaseUrl = (JSON.parse(ready[0]) as { urls: { gateway: string } }).urls.gateway;

    const upstream = await startGarbageUpstream();
    closers.push(upstream.close);

    const webhookStub = createGrpcServer({
      serviceName: 'webhook-stub',
      logger: createLogger({ service: 'webhook-stub', level: 'warn' }),
      register: (router) =>
        router.service(WebhookService, {
          async rotateSigningSecret(req) {
            return { secret: req.secret || `whsec_${randomBytes(32).toString('base64url')}` };
          },
        }),
    });
    const webhookPort = await webhookStub.listen(0, '127.0.0.1');
    closers.push(() => webhookStub.close({ graceMs: 1_000 }));

    const adminToken = randomBytes(24).toString('base64url');
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const gateway = await startGateway(
      loadGatewayConfig({
        ...baseEnv(),
        HOST: '127.0.0.1',
        PORT: String(port),
        ADMIN_PORT: '0',
        PUBLIC_DOCS_URL: `${baseUrl}/docs`,
        DATABASE_URL: databaseUrl,
        DB_POOL_MAX: '3',
        MIGRATE_ON_START: 'true',
        RATE_LIMIT_BACKEND: 'memory',
        LOG_LEVEL: 'error',
        PAYOUT_ADMIN_TOKEN: adminToken,
        DECODER_URL: upstream.url,
        FX_URL: upstream.url,
        PAYOUT_URL: upstream.url,
        WEBHOOK_URL: `http://127.0.0.1:${webhookPort}`,
        SCHEMES_CACHE_TTL_MS: '0',
        OTEL_SDK_DISABLED: 'true',
      }),
    );
    closers.push(async () => {
      await gateway.stop();
      await closeGrpcClients();
    });

    const admin = createAdminClient(gateway.adminUrl, adminToken);
    const tenant = await admin.createTenant({ name: 'Garbage upstream check' });
    return { baseUrl, apiKey: tenant.apiKey, marker: MARKER, close };
  } catch (err) {
    await close();
    throw err;
  }
}
