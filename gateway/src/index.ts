import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Env } from '@qr-payout/platform/config';
import { createLogger, type Logger } from '@qr-payout/platform/log';
import { buildAdminServer } from './admin/server';
import { loadGatewayConfig, parseTrustProxy } from './config';
import { createGatewayDeps } from './deps';
import { createCurrencyCatalogue } from './fx/currencies';
import { buildPublicApp } from './http/app';
import { migrateGateway } from './migrations';
import { createReadiness } from './readiness/readiness';
import { createSchemeCatalogue } from './schemes/catalogue';
import { createTenantService, type TenantService } from './tenants/service';

export { loadGatewayConfig } from './config';
export { DYNAMIC_PIX_CHARGE, SANDBOX_TEST_QRS, type SandboxTestQr } from './docs/sandbox-test-qrs';
export { buildPublicApp } from './http/app';
export { migrateGateway } from './migrations';
export { buildOpenApiDocument } from './openapi/document';

export interface StartGatewayOverrides {
  logger?: Logger;
}

export interface RunningGateway {
  port: number;
  adminPort: number;
  /** The tenant service, for the sandbox's bootstrap of its test tenant. */
  tenants: TenantService;
  /** Readiness goes to 503 (first shutdown step). */
  beginShutdown(): void;
  /** Readiness 503, then drains and closes both servers, the gRPC clients, the pool and Redis. */
  close(): Promise<void>;
}

// How long start waits for the rate limiter's Redis before serving on the fallback limiter.
const REDIS_START_WAIT_MS = 3_000;

function listenAdmin(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeAdmin(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** Loads config from `env`, creates deps, migrates when MIGRATE_ON_START=true, starts both servers. */
export async function startGateway(env: Env, overrides: StartGatewayOverrides = {}): Promise<RunningGateway> {
  const config = loadGatewayConfig(env);
  const logger = overrides.logger ?? createLogger({ service: 'gateway', level: config.logLevel });
  const deps = createGatewayDeps(config, logger);
  try {
    if (config.migrateOnStart) await migrateGateway(deps.pool, config.dbSchema, logger);
    if (!(await deps.redisReady(REDIS_START_WAIT_MS))) {
      logger.warn('rate limiter: Redis not reachable at start, using per-process limits until it is');
    }
    const tenants = createTenantService({
      pool: deps.pool,
      webhook: deps.webhook,
      logger,
      defaultRateLimit: config.rateLimitDefault,
      authCacheTtlMs: config.authCacheTtlMs,
    });
    const readiness = createReadiness({ pool: deps.pool });
    const app = buildPublicApp({
      tenants,
      limiter: deps.limiter,
      schemes: createSchemeCatalogue({
        decoder: deps.decoder,
        payout: deps.payout,
        logger,
        ttlMs: config.schemesCacheTtlMs,
      }),
      decoder: deps.decoder,
      currencies: createCurrencyCatalogue({ fx: deps.fx, logger, ttlMs: config.currenciesCacheTtlMs }),
      payout: deps.payout,
      payments: {
        idempotency: deps.idempotency,
        executeWaitMs: config.executeWaitMs,
        executeCallTimeoutMs: config.grpcTimeoutMs,
        partnerCallbackSecret: config.partnerCallbackSecret,
      },
      webhook: deps.webhook,
      readiness,
      logger,
      publicDocsUrl: config.publicDocsUrl,
      authFailureLimit: config.authFailureLimit,
      trustProxy: parseTrustProxy(config.trustProxy),
    });
    await app.listen({ port: config.port, host: config.host });
    const port = (app.server.address() as AddressInfo).port;
    const admin = buildAdminServer({
      tenants,
      webhook: deps.webhook,
      payout: deps.payout,
      adminToken: config.adminToken,
      logger,
    });
    let adminPort: number;
    try {
      adminPort = await listenAdmin(admin, config.adminPort, config.host);
    } catch (err) {
      await app.close();
      throw err;
    }
    if (!config.partnerCallbackSecret) {
      logger.warn('PARTNER_CALLBACK_SECRET is not set: partner callbacks are refused (503) until it is');
    }
    logger.info({ port, admin_port: adminPort }, 'gateway listening');

    let closing: Promise<void> | undefined;
    return {
      port,
      adminPort,
      tenants,
      beginShutdown: () => readiness.beginShutdown(),
      close() {
        closing ??= (async () => {
          readiness.beginShutdown();
          await Promise.all([app.close(), closeAdmin(admin)]);
          await deps.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await deps.close().catch(() => undefined);
    throw err;
  }
}
