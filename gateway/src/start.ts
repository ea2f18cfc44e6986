// What runs in a gateway process: the public HTTP API (Fastify, src/http/app.ts) on PORT and the
// admin API (src/admin) on ADMIN_PORT, both over the gRPC clients of decoder, fx, payout and
// webhook, with the tenants in schema gateway and rate limits and idempotency in Redis.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@qr-payout/platform/log';
import { dialUrl } from '@qr-payout/platform/net';
import type { FastifyInstance } from 'fastify';
import { buildAdminServer } from './admin/server';
import { type GatewayConfig, parseTrustProxy } from './config';
import { createGatewayDeps } from './deps';
import { createCurrencyCatalogue } from './fx/currencies';
import { buildPublicApp } from './http/app';
import { migrateGateway } from './migrations';
import { createReadiness } from './readiness/readiness';
import { createReadinessStore } from './readiness/store';
import { createSchemeCatalogue } from './schemes/catalogue';
import { createTenantService } from './tenants/service';
import { createTenantStore } from './tenants/store';

export interface StartGatewayOverrides {
  logger?: Logger;
  /** Called with the public app before it listens: tests add their checks there. */
  onPublicApp?: (app: FastifyInstance) => void;
}

export interface RunningGateway {
  /** The public API, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The admin API (payoutctl --admin-url). */
  adminUrl: string;
  /** Readiness goes to 503 (first shutdown step). */
  beginShutdown(): void;
  /** Readiness 503, then drains and closes both servers, the gRPC clients, the pool and Redis. Idempotent. */
  stop(): Promise<void>;
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

/** Migrates when MIGRATE_ON_START=true, then serves the public API on PORT and the admin API on ADMIN_PORT. */
export async function startGateway(
  config: GatewayConfig,
  overrides: StartGatewayOverrides = {},
): Promise<RunningGateway> {
  const logger = overrides.logger ?? createLogger({ service: 'gateway', level: config.logLevel });
  const deps = createGatewayDeps(config, logger);
  try {
    if (config.migrateOnStart) await migrateGateway(deps.pool, config.dbSchema, logger);
    if (!(await deps.redisReady(REDIS_START_WAIT_MS))) {
      logger.warn('rate limiter: Redis not reachable at start, using per-process limits until it is');
    }
    // Each store built once here and passed to the component that uses it.
    const tenants = createTenantService({
      store: createTenantStore(deps.pool),
      webhook: deps.webhook,
      logger,
      defaultRateLimit: config.rateLimitDefault,
      authCacheTtlMs: config.authCacheTtlMs,
    });
    const readiness = createReadiness({ store: createReadinessStore(deps.pool) });

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
        settings: deps.executionSettings,
        executeCallTimeoutMs: config.grpcTimeoutMs,
        partnerCallbackSecret: config.partnerCallbackSecret,
        sandboxMode: config.sandboxMode,
      },
      webhook: deps.webhook,
      readiness,
      logger,
      publicDocsUrl: config.publicDocsUrl,
      authFailureLimit: config.authFailureLimit,
      trustProxy: parseTrustProxy(config.trustProxy),
    });
    overrides.onPublicApp?.(app);
    await app.listen({ port: config.port, host: config.host });
    const port = (app.server.address() as AddressInfo).port;

    const admin = buildAdminServer({
      tenants,
      webhook: deps.webhook,
      payout: deps.payout,
      adminToken: config.adminToken,
      throttle: { limiter: deps.limiter, failureLimit: config.authFailureLimit },
      logger,
    });
    let adminPort: number;
    try {
      adminPort = await listenAdmin(admin, config.adminPort, config.host);
    } catch (err) {
      await app.close();
      throw err;
    }
    // docs/architecture.md "Idempotency": payout owns both; a gateway copy could only disagree.
    for (const [name, value] of [
      ['EXECUTE_WAIT_MS', config.ignoredExecuteWaitMs],
      ['IDEMPOTENCY_TTL_MS', config.ignoredIdempotencyTtlMs],
    ] as const) {
      if (value !== undefined)
        logger.warn(`${name} is ignored by the gateway: payout owns it (set it on payout)`);
    }
    if (!config.partnerCallbackSecret) {
      logger.warn('PARTNER_CALLBACK_SECRET is not set: partner callbacks are refused (503) until it is');
    }
    logger.info({ port, admin_port: adminPort }, 'gateway listening');

    let stopping: Promise<void> | undefined;
    return {
      url: dialUrl(config.host, port),
      adminUrl: dialUrl(config.host, adminPort),
      beginShutdown: () => readiness.beginShutdown(),
      stop() {
        stopping ??= (async () => {
          readiness.beginShutdown();
          await Promise.all([app.close(), closeAdmin(admin)]);
          await deps.close();
        })();
        return stopping;
      },
    };
  } catch (err) {
    await deps.close().catch(() => undefined);
    throw err;
  }
}
