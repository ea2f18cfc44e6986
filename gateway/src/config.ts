import {
  bool,
  type ConfigOf,
  type Env,
  int,
  loadConfig,
  oneOf,
  pemFile,
  str,
  url,
} from '@qr-payout/platform/config';
import { dbDeadlineSettings } from '@qr-payout/platform/db';
import { grpcClientSettings } from '@qr-payout/platform/grpc';
import { metricsSettings } from '@qr-payout/platform/metrics';
import { MIN_OPERATOR_TOKEN_LENGTH } from './admin/operator-auth';

// Every variable of the gateway (README "Configuration"). Fails fast naming each bad variable.
const shape = {
  port: int('PORT', { default: 8080, min: 0, max: 65535 }),
  adminPort: int('ADMIN_PORT', { default: 8081, min: 0, max: 65535 }),
  host: str('HOST', { default: '0.0.0.0' }),
  databaseUrl: url('DATABASE_URL'),
  dbSchema: str('DB_SCHEMA', { default: 'gateway' }),
  dbPoolMax: int('DB_POOL_MAX', { default: 10, min: 1, max: 1000 }),
  // DB_QUERY_TIMEOUT_MS, DB_CONNECT_TIMEOUT_MS (docs/architecture.md "Deadlines").
  ...dbDeadlineSettings(),
  redisUrl: url('REDIS_URL', { optional: true }),
  // The CA that signed a managed Redis's certificate, read at start (rediss:// only; default: the
  // system's CAs).
  redisTlsCa: pemFile('REDIS_TLS_CA_FILE', { optional: true }),
  rateLimitBackend: oneOf('RATE_LIMIT_BACKEND', ['redis', 'memory'], { default: 'redis' }),
  rateLimitKeyPrefix: str('RATE_LIMIT_KEY_PREFIX', { default: 'gateway:rl:' }),
  rateLimitDefault: int('RATE_LIMIT_DEFAULT', { default: 100, min: 1, max: 1_000_000 }),
  redisCommandTimeoutMs: int('RATE_LIMIT_REDIS_TIMEOUT_MS', { default: 200, min: 1, max: 60_000 }),
  // A Redis connection that answers nothing this long after a command is dropped and made again;
  // connecting (TCP) is given up after REDIS_CONNECT_TIMEOUT_MS (docs/architecture.md "Deadlines").
  redisSocketTimeoutMs: int('REDIS_SOCKET_TIMEOUT_MS', { default: 1_000, min: 1, max: 600_000 }),
  redisConnectTimeoutMs: int('REDIS_CONNECT_TIMEOUT_MS', { default: 2_000, min: 1, max: 600_000 }),
  authFailureLimit: int('AUTH_FAILURE_LIMIT', { default: 30, min: 1, max: 1_000_000 }),
  authCacheTtlMs: int('AUTH_CACHE_TTL_MS', { default: 10_000, min: 0, max: 3_600_000 }),
  trustProxy: str('TRUST_PROXY', { optional: true }),
  decoderUrl: url('DECODER_URL', { default: 'http://127.0.0.1:50051' }),
  fxUrl: url('FX_URL', { default: 'http://127.0.0.1:50052' }),
  payoutUrl: url('PAYOUT_URL', { default: 'http://127.0.0.1:50053' }),
  webhookUrl: url('WEBHOOK_URL', { default: 'http://127.0.0.1:50054' }),
  grpcTimeoutMs: int('GRPC_TIMEOUT_MS', { default: 5_000, min: 1, max: 600_000 }),
  // GRPC_LOAD_BALANCING, GRPC_DNS_MIN_RESOLUTION_INTERVAL_MS: how calls spread over each service's
  // replicas (docs/architecture.md "Internal load balancing").
  ...grpcClientSettings(),
  // A guessable operator token would open the admin API (docs/operators.md "Where the admin API
  // and its token come from"): at least 32 characters, e.g. `openssl rand -base64 32`.
  adminToken: str('PAYOUT_ADMIN_TOKEN', {
    secret: true,
    minLength: MIN_OPERATOR_TOKEN_LENGTH,
    // A random 32-character token has 14 or more different characters even in hex; 8 refuses
    // "aaaa…" and "abab…" without refusing any token a generator makes.
    minDistinct: 8,
  }),
  publicDocsUrl: url('PUBLIC_DOCS_URL', { default: 'http://localhost:8080/docs' }),
  schemesCacheTtlMs: int('SCHEMES_CACHE_TTL_MS', { default: 60_000, min: 0, max: 86_400_000 }),
  currenciesCacheTtlMs: int('FX_CURRENCIES_CACHE_TTL_MS', { default: 60_000, min: 0, max: 86_400_000 }),
  // Owned by payout (GetExecutionSettings); read only to warn that they are ignored.
  ignoredExecuteWaitMs: str('EXECUTE_WAIT_MS', { optional: true }),
  ignoredIdempotencyTtlMs: str('IDEMPOTENCY_TTL_MS', { optional: true }),
  idempotencyKeyPrefix: str('IDEMPOTENCY_KEY_PREFIX', { default: 'gateway:idem:' }),
  idempotencyLockTtlMs: int('IDEMPOTENCY_LOCK_TTL_MS', { default: 60_000, min: 1_000, max: 3_600_000 }),
  partnerCallbackSecret: str('PARTNER_CALLBACK_SECRET', { secret: true, optional: true }),
  migrateOnStart: bool('MIGRATE_ON_START', { default: false }),
  // The one owner of "this deployment is the sandbox": set only by the sandbox's wiring
  // (sandbox/src/service-env.ts); it opens the test helpers (docs/api/sandbox.md "Triggers").
  sandboxMode: bool('SANDBOX_MODE', { default: false }),
  logLevel: oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error'], { default: 'info' }),
  shutdownGraceMs: int('SHUTDOWN_GRACE_MS', { default: 20_000, min: 0, max: 600_000 }),
  // METRICS_ENABLED, METRICS_PORT: /metrics for Prometheus (docs/runbooks.md "Metrics").
  ...metricsSettings(),
};

export type GatewayConfig = ConfigOf<typeof shape>;

/**
 * What `main.js migrate` needs: the database and the log level. The migration Job gets
 * DATABASE_URL only (charts/qr-payout/secret-keys.json), not the admin token or Redis.
 */
export function loadGatewayMigrateConfig(env: Env) {
  return loadConfig(
    { databaseUrl: shape.databaseUrl, dbSchema: shape.dbSchema, logLevel: shape.logLevel },
    env,
  );
}

export class GatewayConfigError extends Error {}

export function loadGatewayConfig(env: Env): GatewayConfig {
  const config = loadConfig(shape, env);
  if (config.rateLimitBackend === 'redis' && !config.redisUrl) {
    throw new GatewayConfigError(
      'invalid configuration: REDIS_URL is required unless RATE_LIMIT_BACKEND=memory',
    );
  }
  if (config.redisTlsCa !== undefined && !config.redisUrl?.startsWith('rediss://'))
    throw new GatewayConfigError('invalid configuration: REDIS_TLS_CA_FILE needs a rediss:// REDIS_URL');
  return config;
}

/**
 * TRUST_PROXY: unset (trust nobody: the client address is the socket's), "true" (trust every
 * proxy), or a comma list of proxy addresses / CIDRs whose X-Forwarded-For is believed.
 */
export function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
