import path from 'node:path';
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { createLogger, type Logger } from '@qr-payout/platform/log';
import type pg from 'pg';
import type { FxConfig } from './config';
import { createQuoteService, type QuoteService } from './quotes/service';
import { createQuoteStore } from './quotes/store';
import { minorUnitsByCode } from './rates/rate-table';
import { createRateService, type RateService } from './rates/service';
import { createTableRateProvider } from './rates/table-provider';

/** The SQL migrations of schema fx (applied by `main.ts migrate` or MIGRATE_ON_START). */
export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export type FxDeps = {
  readonly config: FxConfig;
  readonly logger: Logger;
  readonly pool: pg.Pool;
  readonly rates: RateService;
  readonly quotes: QuoteService;
  /** Applies the pending migrations of the configured schema. */
  migrate(): Promise<void>;
  /** Ends the pool. */
  close(): Promise<void>;
};

export function createDeps(config: FxConfig): FxDeps {
  const logger = createLogger({ service: 'fx', level: config.logLevel });
  const pool = createPgPool({
    connectionString: config.databaseUrl,
    schema: config.dbSchema,
    max: config.dbPoolMax,
    applicationName: 'fx',
    onError: (err) => logger.error({ err }, 'idle PostgreSQL client error'),
  });
  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    pool,
    rates: createRateService({ rates: config.rates }),
    quotes: createQuoteService({
      store: createQuoteStore(pool),
      rates: createTableRateProvider(config.rates),
      minorUnits: minorUnitsByCode(config.rates),
      pricing: { spreadBps: config.spreadBps, feeBps: config.feeBps, ttlMs: config.quoteTtlMs },
    }),
    migrate: async () => {
      await migrate(pool, { schema: config.dbSchema, dir: MIGRATIONS_DIR, logger });
    },
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}
