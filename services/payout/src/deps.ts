import path from 'node:path';
import {
  createKafkaBus,
  createLogger,
  createPgPool,
  type EventBus,
  type Logger,
  migrate,
} from '@qr-payout/platform';
import type pg from 'pg';
import type { PayoutConfig } from './config';
import { createInstructionService, type InstructionService } from './instructions/service';
import { createInstructionStore } from './instructions/store';
import { createTransactionService, type TransactionService } from './transactions/service';
import { createTransactionStore } from './transactions/store';

/** The SQL migrations of schema payout (applied by `main.ts migrate` or MIGRATE_ON_START). */
export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export type PayoutDeps = {
  readonly config: PayoutConfig;
  readonly logger: Logger;
  readonly pool: pg.Pool;
  /** Where the outbox relay publishes transaction events (Kafka, or the sandbox's memory bus). */
  readonly bus: EventBus;
  readonly instructions: InstructionService;
  readonly transactions: TransactionService;
  /** Applies the pending migrations of the configured schema. */
  migrate(): Promise<void>;
  /** Closes the bus (when created here), then ends the pool. Idempotent. */
  close(): Promise<void>;
};

export type PayoutDepsOverrides = {
  /** A bus owned by the caller (the sandbox's memory bus); the deps never close it. */
  bus?: EventBus;
};

export function createDeps(config: PayoutConfig, overrides: PayoutDepsOverrides = {}): PayoutDeps {
  const logger = createLogger({ service: 'payout', level: config.logLevel });
  const pool = createPgPool({
    connectionString: config.databaseUrl,
    schema: config.dbSchema,
    max: config.dbPoolMax,
    applicationName: 'payout',
    onError: (err) => logger.error({ err }, 'idle PostgreSQL client error'),
  });
  const ownBus = overrides.bus === undefined;
  const bus =
    overrides.bus ?? createKafkaBus({ brokers: [...config.kafkaBrokers], clientId: 'payout', logger });
  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    pool,
    bus,
    instructions: createInstructionService({ store: createInstructionStore(pool) }),
    transactions: createTransactionService({ store: createTransactionStore(pool) }),
    migrate: async () => {
      await migrate(pool, { schema: config.dbSchema, dir: MIGRATIONS_DIR, logger });
    },
    close() {
      closing ??= (async () => {
        try {
          if (ownBus) await bus.close();
        } finally {
          await pool.end();
        }
      })();
      return closing;
    },
  };
}
