import path from 'node:path';
import { createLogger, createPgPool, type EventBus, type Logger, migrate } from '@qr-payout/platform';
import type pg from 'pg';
import type { WebhookConfig } from './config';
import { createSealedBox } from './crypto/sealed-box';
import { createEndpointService, type EndpointService } from './endpoints/service';
import { createSigningSecretService, type SigningSecretService } from './secrets/service';

/** The SQL migrations of schema webhook (applied by `main.ts migrate` or MIGRATE_ON_START). */
export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export type WebhookOverrides = {
  /** The event bus to consume from (the sandbox's in-memory bus); its owner closes it. */
  bus?: EventBus;
};

export type WebhookDeps = {
  readonly config: WebhookConfig;
  readonly logger: Logger;
  readonly pool: pg.Pool;
  readonly endpoints: EndpointService;
  readonly signingSecrets: SigningSecretService;
  /** Given by the caller; the Kafka dispatcher (next issue) creates a Kafka bus when absent. */
  readonly bus: EventBus | undefined;
  /** Applies the pending migrations of the configured schema. */
  migrate(): Promise<void>;
  /** Ends the pool. */
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
  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    pool,
    endpoints: createEndpointService({ pool, sealedBox, allowPrivateTargets: config.allowPrivateTargets }),
    signingSecrets: createSigningSecretService({ pool, sealedBox }),
    bus: overrides.bus,
    migrate: async () => {
      await migrate(pool, { schema: config.dbSchema, dir: MIGRATIONS_DIR, logger });
    },
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}
