import path from 'node:path';
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { createKafkaBus, type EventBus, type KafkaBus } from '@qr-payout/platform/events';
import { createLogger, type Logger } from '@qr-payout/platform/log';
import type pg from 'pg';
import type { WebhookConfig } from './config';

/** The SQL migrations of schema webhook (applied by `main.ts migrate` or MIGRATE_ON_START). */
export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export type WebhookOverrides = {
  /** The event bus to consume from (the sandbox's in-memory bus); its owner closes it. */
  bus?: EventBus;
};

/** The webhook service's infrastructure: its logger, its pool (schema webhook) and the event bus. */
export type WebhookDeps = {
  readonly logger: Logger;
  readonly pool: pg.Pool;
  /** The caller's bus, or Kafka when none was given. */
  readonly bus: EventBus | undefined;
  /**
   * The Kafka side of the dispatcher group, when the bus is Kafka's: its lag on a topic, its
   * members, the topic's partitions (the dispatcher's gauges: docs/runbooks.md "Webhook consumer
   * lag", "Idle webhook dispatchers").
   */
  readonly kafkaGroup: Pick<KafkaBus, 'consumerLag' | 'groupMembers' | 'partitionCount'> | undefined;
  /** Applies the pending migrations of the configured schema. */
  migrate(): Promise<void>;
  /** Closes the bus (when created here), then ends the pool. Idempotent. */
  close(): Promise<void>;
};

export function createDeps(config: WebhookConfig, overrides: WebhookOverrides = {}): WebhookDeps {
  const logger = createLogger({ service: 'webhook', level: config.logLevel });
  const pool = createPgPool({
    connectionString: config.databaseUrl,
    schema: config.dbSchema,
    max: config.dbPoolMax,
    queryTimeoutMs: config.dbQueryTimeoutMs,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    applicationName: 'webhook',
    onError: (err) => logger.error({ err }, 'idle PostgreSQL client error'),
  });
  // Kafka connects lazily: a process without the dispatcher only opens the lag gauge's admin
  // connection.
  const ownBus = overrides.bus === undefined;
  const kafka = ownBus
    ? createKafkaBus({
        brokers: [...config.kafkaBrokers],
        connection: config.kafkaConnection,
        clientId: 'webhook',
        logger,
      })
    : undefined;
  const bus = kafka ?? overrides.bus;
  let closing: Promise<void> | undefined;
  return {
    logger,
    pool,
    bus,
    kafkaGroup: kafka,
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
