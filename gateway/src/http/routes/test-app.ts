import { silentLogger } from '@qr-payout/platform/log';
import type { FastifyInstance } from 'fastify';
import { NO_IDEMPOTENCY_CACHE } from '../../idempotency/cache';
import { createMemoryRateLimiter } from '../../ratelimit/memory';
import { buildPublicApp, type PublicAppDeps } from '../app';
import { checkResponsesAgainstRoutes } from './response-check';

// The public app of a route's unit test: real auth, validation and error registry, one key
// (TEST_API_KEY, tenant `tenantId`), and only the clients the test passes: the app's other
// routes are not called there. Every response is checked against its route's declared schema
// (response-check.ts): close() fails on one that is not.

export const TEST_API_KEY = 'qrp_AbCdEfGh_0123456789abcdefghijklmnopqrstuv';

export async function startRouteTestApp(
  clients: Partial<PublicAppDeps>,
  opts: { tenantId?: string; rateLimitPerMinute?: number } = {},
): Promise<{ app: FastifyInstance; base: string }> {
  const tenant = {
    tenantId: opts.tenantId ?? 'ten_a',
    keyPrefix: 'qrp_AbCdEfGh',
    rateLimitPerMinute: opts.rateLimitPerMinute ?? 100,
  };
  const app = buildPublicApp({
    tenants: { authenticate: async (raw: string) => (raw === TEST_API_KEY ? tenant : null) },
    limiter: createMemoryRateLimiter(),
    schemes: {
      getJson: async () => ({
        schemes: '[]',
        payerIdentity: '{"fields":[],"documents":[],"passport_format":""}',
      }),
    },
    readiness: { notReadyReason: async () => undefined },
    logger: silentLogger(),
    publicDocsUrl: 'http://localhost:8080/docs',
    authFailureLimit: 10,
    payments: {
      idempotency: NO_IDEMPOTENCY_CACHE,
      settings: { get: async () => ({ executeWaitMs: 0, idempotencyKeyTtlMs: 86_400_000 }) },
      executeCallTimeoutMs: 1_000,
    },
    ...clients,
  } as unknown as PublicAppDeps);
  checkResponsesAgainstRoutes(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}
