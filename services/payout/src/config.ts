import { bool, type Env, int, list, loadConfig, oneOf, str, url } from '@qr-payout/platform';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** The payout service's typed, frozen config; fails fast naming every bad variable. */
export function loadPayoutConfig(env: Env) {
  return loadConfig(
    {
      grpcPort: int('GRPC_PORT', { default: 50053, min: 0, max: 65535 }),
      host: str('HOST', { default: '0.0.0.0' }),
      databaseUrl: url('DATABASE_URL'),
      dbPoolMax: int('DB_POOL_MAX', { default: 10, min: 1 }),
      dbSchema: str('DB_SCHEMA', { default: 'payout' }),
      migrateOnStart: bool('MIGRATE_ON_START', { default: false }),
      // The outbox relay publishes here (design §5); the producer connects on first publish.
      kafkaBrokers: list('KAFKA_BROKERS', { default: ['127.0.0.1:9092'] }),
      logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, { default: 'info' }),
      // Under the pod's termination grace period (30 s by default in Kubernetes).
      shutdownGraceMs: int('SHUTDOWN_GRACE_MS', { default: 20_000, min: 0 }),
      grpcDrainMs: int('GRPC_DRAIN_MS', { default: 10_000, min: 0 }),
    },
    env,
  );
}

export type PayoutConfig = ReturnType<typeof loadPayoutConfig>;
