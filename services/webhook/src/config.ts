import {
  bool,
  type ConfigReader,
  type Env,
  givenValue,
  int,
  loadConfig,
  num,
  oneOf,
  str,
  url,
} from '@qr-payout/platform/config';
import { dbDeadlineSettings, dbHealthSettings, pruneJobSettings } from '@qr-payout/platform/db';
import { kafkaSettings } from '@qr-payout/platform/events';
import { grpcServiceSettings } from '@qr-payout/platform/grpc';
import { LOG_LEVELS } from '@qr-payout/platform/log';
import { previousSealingKeys, sealingKey } from './crypto/sealing-keys';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

// DB_SCHEMA is spliced into SET search_path, so only plain lower-case identifiers pass.
function schemaName(name: string, fallback: string): ConfigReader<string> {
  return {
    name,
    secret: false,
    read(env) {
      const raw = givenValue(env, name) ?? fallback;
      if (SCHEMA_NAME.test(raw)) return { ok: true, value: raw };
      return {
        ok: false,
        problem: `${name} must be a lower-case SQL identifier (got ${JSON.stringify(raw)})`,
      };
    },
  };
}

/** What `main.ts migrate` needs: the database only, so the migration Job holds no secrets. */
export function loadDatabaseConfig(env: Env) {
  return loadConfig(
    {
      databaseUrl: url('DATABASE_URL'),
      dbPoolMax: int('DB_POOL_MAX', { default: 10, min: 1 }),
      dbSchema: schemaName('DB_SCHEMA', 'webhook'),
      logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, { default: 'info' }),
    },
    env,
  );
}

/** The webhook service's typed, frozen config; fails fast naming every bad variable. */
export function loadWebhookConfig(env: Env) {
  return loadConfig(
    {
      ...grpcServiceSettings(50054),
      databaseUrl: url('DATABASE_URL'),
      dbPoolMax: int('DB_POOL_MAX', { default: 10, min: 1 }),
      // DB_QUERY_TIMEOUT_MS, DB_CONNECT_TIMEOUT_MS, DB_HEALTH_INTERVAL_MS (docs/architecture.md
      // "Deadlines").
      ...dbDeadlineSettings(),
      ...dbHealthSettings(),
      dbSchema: schemaName('DB_SCHEMA', 'webhook'),
      migrateOnStart: bool('MIGRATE_ON_START', { default: false }),
      // Seals signing secrets and custom header values at rest (src/crypto/sealed-box.ts).
      secretsKey: sealingKey('WEBHOOK_SECRETS_KEY'),
      previousSecretsKeys: previousSealingKeys('WEBHOOK_SECRETS_PREVIOUS_KEYS'),
      // docs/api/webhooks.md "Where we send": http and loopback/private/link-local targets only for
      // the sandbox and tests.
      allowPrivateTargets: bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', { default: false }),
      // docs/architecture.md "Webhooks": multiplies every retry delay and the auto-disable period.
      retryScale: num('WEBHOOK_RETRY_SCALE', { default: 1, min: 0 }),
      // The dispatcher's consumer and the lag gauge: KAFKA_BROKERS, KAFKA_TLS*, KAFKA_SASL_*.
      ...kafkaSettings(),
      // One binary, roles by flag (as Svix splits API and worker): the gRPC API always serves.
      dispatcherEnabled: bool('WEBHOOK_DISPATCHER_ENABLED', { default: true }),
      // Replicas share the group; a new group starts at the topic's earliest event.
      dispatcherGroup: str('WEBHOOK_DISPATCHER_GROUP', { default: 'webhook-dispatcher' }),
      // How soon a killed dispatcher's partitions move to another replica.
      kafkaSessionTimeoutMs: int('KAFKA_SESSION_TIMEOUT_MS', { default: 30_000, min: 6_000 }),
      // The dispatcher reuses a tenant's endpoints this long (README "Dispatcher"): an endpoint
      // created or changed through another replica is seen at most this late; 0 reads every batch.
      endpointCacheMs: int('WEBHOOK_ENDPOINT_CACHE_MS', { default: 1_000, min: 0, max: 60_000 }),
      workerEnabled: bool('WEBHOOK_WORKER_ENABLED', { default: true }),
      workerConcurrency: int('WEBHOOK_WORKER_CONCURRENCY', { default: 32, min: 1 }),
      pollMs: int('WEBHOOK_POLL_MS', { default: 1000, min: 10 }),
      // Longer than a whole attempt (WEBHOOK_TIMEOUT_MS): a lapsed lease means a crashed worker.
      leaseMs: int('WEBHOOK_LEASE_MS', { default: 60_000, min: 100 }),
      connectTimeoutMs: int('WEBHOOK_CONNECT_TIMEOUT_MS', { default: 5_000, min: 1 }),
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', { default: 15_000, min: 1 }),
      // docs/api/webhooks.md "Webhook deliveries" (Replay): two replays of one delivery are at least
      // this far apart (0: no minimum); a sooner one is DeliveryReplayTooSoon with Retry-After.
      replayMinIntervalMs: int('WEBHOOK_REPLAY_MIN_INTERVAL_MS', { default: 10_000, min: 0, max: 3_600_000 }),
      // docs/api/webhooks.md "Auto-disable": 5 days of only failures disables an endpoint (times
      // WEBHOOK_RETRY_SCALE).
      autoDisableHours: num('WEBHOOK_AUTO_DISABLE_HOURS', { default: 120, min: 0 }),
      // Retention (docs/operators.md "Retention"): RETENTION_ENABLED, RETENTION_INTERVAL_MS,
      // RETENTION_BATCH_SIZE, RETENTION_PAUSE_MS.
      ...pruneJobSettings(),
      // A finished delivery (delivered, failed, exhausted) and its attempts are kept this long
      // after their last change (30 days: integrators look back at them), then deleted.
      deliveryRetentionMs: int('WEBHOOK_DELIVERY_RETENTION_MS', { default: 2_592_000_000, min: 1 }),
    },
    env,
  );
}

export type WebhookConfig = ReturnType<typeof loadWebhookConfig>;
export type DatabaseConfig = ReturnType<typeof loadDatabaseConfig>;
