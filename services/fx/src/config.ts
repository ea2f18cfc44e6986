import { bool, type ConfigReader, type Env, int, loadConfig, str, url } from '@qr-payout/platform/config';
import { dbDeadlineSettings, dbHealthSettings, pruneJobSettings } from '@qr-payout/platform/db';
import { grpcServiceSettings } from '@qr-payout/platform/grpc';
import { DEFAULT_RATE_TABLE, parseRateTable, type RateTable } from './rates/rate-table';

// FX_RATES through the platform's reader shape, so a bad table is reported with every other
// bad variable in one ConfigError.
function rateTable(name: string): ConfigReader<RateTable> {
  return {
    name,
    secret: false,
    read(env) {
      const raw = env[name];
      if (raw === undefined || raw.trim() === '') return { ok: true, value: DEFAULT_RATE_TABLE };
      const parsed = parseRateTable(raw);
      return parsed.ok
        ? { ok: true, value: parsed.table }
        : { ok: false, problem: `${name} ${parsed.problem}` };
    },
  };
}

/** The fx service's typed, frozen config; fails fast naming every bad variable. */
export function loadFxConfig(env: Env) {
  return loadConfig(
    {
      ...grpcServiceSettings(50052),
      databaseUrl: url('DATABASE_URL'),
      dbPoolMax: int('DB_POOL_MAX', { default: 10, min: 1 }),
      // DB_QUERY_TIMEOUT_MS, DB_CONNECT_TIMEOUT_MS, DB_HEALTH_INTERVAL_MS (docs/architecture.md
      // "Deadlines").
      ...dbDeadlineSettings(),
      ...dbHealthSettings(),
      dbSchema: str('DB_SCHEMA', { default: 'fx' }),
      migrateOnStart: bool('MIGRATE_ON_START', { default: false }),
      rates: rateTable('FX_RATES'),
      // Below 10000 bps: the quoted rate must stay positive.
      spreadBps: int('FX_SPREAD_BPS', { default: 50, min: 0, max: 9_999 }),
      feeBps: int('FX_FEE_BPS', { default: 0, min: 0, max: 10_000 }),
      quoteTtlMs: int('FX_QUOTE_TTL_MS', { default: 60_000, min: 1 }),
      // Retention (docs/operators.md "Retention"): RETENTION_ENABLED, RETENTION_INTERVAL_MS,
      // RETENTION_BATCH_SIZE, RETENTION_PAUSE_MS.
      ...pruneJobSettings(),
      // A quote is kept this long after it expired (30 days), then deleted, open or confirmed.
      quoteRetentionMs: int('QUOTE_RETENTION_MS', { default: 2_592_000_000, min: 1 }),
    },
    env,
  );
}

export type FxConfig = ReturnType<typeof loadFxConfig>;
