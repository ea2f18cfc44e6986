import path from 'node:path';
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { createLogger, type Logger } from '@qr-payout/platform/log';
import type pg from 'pg';
import type { FxConfig } from './config';

/** The SQL migrations of schema fx (applied by `main.ts migrate` or MIGRATE_ON_START). */
export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

/** The fx service's infrastructure: its logger and its PostgreSQL pool (schema fx). */
export type FxDeps = {
  readonly logger: Logger;
  readonly pool: pg.Pool;
  /** Applies the pending migrations of the configured schema. */
  migrate(): Promise<void>;
  /** Ends the pool. Idempotent. */
  close(): Promise<void>;
};

export function createDeps(config: FxConfig): FxDeps {
  const logger = createLogger({ service: 'fx', level: config.logLevel });
  const pool = createPgPool({
    connectionString: config.databaseUrl,
    schema: config.dbSchema,
    max: config.dbPoolMax,
    queryTimeoutMs: config.dbQueryTimeoutMs,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    applicationName: 'fx',
    onError: (err) => logger.error({ err }, 'idle PostgreSQL client error'),
  });
  let closing: Promise<void> | undefined;
  return {
    logger,
    pool,
    migrate: async () => {
      await migrate(pool, { schema: config.dbSchema, dir: MIGRATIONS_DIR, logger });
    },
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}
