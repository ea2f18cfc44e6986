import path from 'node:path';
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { createKafkaBus, type EventBus } from '@qr-payout/platform/events';
import { createLogger, type Logger } from '@qr-payout/platform/log';
import type pg from 'pg';
import type { WebhookConfig } from './config';
import { createSealedBox, type SealedBox } from './crypto/sealed-box';
import { createTenantEndpointCache, type TenantEndpointCache } from './deliveries/endpoint-cache';
import { createDeliveryService, type DeliveryService } from './deliveries/service';
import { findTenantEndpoints } from './deliveries/store';
import type { DeliveryWorkerSettings } from './deliveries/worker';
import { createEgressGuard, type EgressGuard } from './egress/guard';
import {
  createEndpointService,
  DISABLED_AFTER_FAILING,
  ENDPOINT_DISABLED_ERROR,
  type EndpointService,
} from './endpoints/service';
import { createSigningSecretService, type SigningSecretService } from './secrets/service';

/** The SQL migrations of schema webhook (applied by `main.ts migrate` or MIGRATE_ON_START). */
export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

const HOUR_MS = 3_600_000;
// What an attempt keeps of the receiver's answer, for support (never request headers).
const RESPONSE_EXCERPT_BYTES = 1024;

export type WebhookOverrides = {
  /** The event bus to consume from (the sandbox's in-memory bus); its owner closes it. */
  bus?: EventBus;
};

export type WebhookDeps = {
  readonly config: WebhookConfig;
  readonly logger: Logger;
  readonly pool: pg.Pool;
  readonly sealedBox: SealedBox;
  readonly guard: EgressGuard;
  readonly endpoints: EndpointService;
  /** The dispatcher's tenants' endpoints (WEBHOOK_ENDPOINT_CACHE_MS), invalidated by `endpoints`. */
  readonly endpointCache: TenantEndpointCache;
  readonly signingSecrets: SigningSecretService;
  readonly deliveries: DeliveryService;
  /** The caller's bus, or Kafka when the dispatcher runs and none was given. */
  readonly bus: EventBus | undefined;
  readonly workerSettings: DeliveryWorkerSettings;
  /** Tells the delivery worker (when it runs in this process) that deliveries are due now. */
  wakeWorker(): void;
  /** Set once the worker runs. */
  onWake(wake: () => void): void;
  /** Applies the pending migrations of the configured schema. */
  migrate(): Promise<void>;
  /** Closes the bus (when created here), then ends the pool. */
  close(): Promise<void>;
};

export function createDeps(config: WebhookConfig, overrides: WebhookOverrides = {}): WebhookDeps {
  const logger = createLogger({ service: 'webhook', level: config.logLevel });
  const pool = createPgPool({
    connectionString: config.databaseUrl,
    schema: config.dbSchema,
    max: config.dbPoolMax,
    applicationName: 'webhook',
    onError: (err) => logger.error({ err }, 'idle PostgreSQL client error'),
  });
  const sealedBox = createSealedBox([config.secretsKey, ...config.previousSecretsKeys]);
  const ownBus = overrides.bus === undefined && config.dispatcherEnabled;
  const bus = ownBus
    ? createKafkaBus({ brokers: [...config.kafkaBrokers], clientId: 'webhook', logger })
    : overrides.bus;
  let wakeWorker: () => void = () => undefined;
  const endpointCache = createTenantEndpointCache({
    ttlMs: config.endpointCacheMs,
    load: (tenantIds) => findTenantEndpoints(pool, tenantIds),
  });
  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    pool,
    sealedBox,
    guard: createEgressGuard({ allowPrivateTargets: config.allowPrivateTargets }),
    endpoints: createEndpointService({
      pool,
      sealedBox,
      allowPrivateTargets: config.allowPrivateTargets,
      onEndpointsChanged: (tenantId) => endpointCache.invalidate(tenantId),
    }),
    endpointCache,
    signingSecrets: createSigningSecretService({ pool, sealedBox }),
    deliveries: createDeliveryService({ pool, onDue: () => wakeWorker() }),
    bus,
    workerSettings: {
      concurrency: config.workerConcurrency,
      pollMs: config.pollMs,
      leaseMs: config.leaseMs,
      connectTimeoutMs: config.connectTimeoutMs,
      timeoutMs: config.timeoutMs,
      maxExcerptBytes: RESPONSE_EXCERPT_BYTES,
      retryScale: config.retryScale,
      autoDisable: {
        afterMs: config.autoDisableHours * HOUR_MS * config.retryScale,
        reason: DISABLED_AFTER_FAILING,
        deliveryError: ENDPOINT_DISABLED_ERROR,
      },
    },
    wakeWorker: () => wakeWorker(),
    onWake(wake) {
      wakeWorker = wake;
    },
    migrate: async () => {
      await migrate(pool, { schema: config.dbSchema, dir: MIGRATIONS_DIR, logger });
    },
    close() {
      closing ??= (async () => {
        if (ownBus && bus) await bus.close().catch((err: unknown) => logger.warn({ err }, 'closing Kafka'));
        await pool.end();
      })();
      return closing;
    },
  };
}
