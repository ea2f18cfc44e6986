import type { SandboxCredentials } from './credentials';

// The env each in-process service is started with (docs/architecture.md "Deployment"). Only these
// values and a few harmless knobs of the caller's env are passed on, so a shell with production
// variables (DATABASE_URL, DB_SCHEMA, KAFKA_BROKERS, REDIS_URL) cannot point the sandbox at real
// infrastructure.

// The whole webhook retry schedule (about 5.7 days at scale 1, docs/api/webhooks.md "Retries") in
// under a minute.
export const SANDBOX_RETRY_SCALE = '0.0001';
export const SANDBOX_DB_POOL_MAX = '3';
export const SANDBOX_LOG_LEVEL = 'warn';
export const SANDBOX_OUTBOX_POLL_MS = '200';

const PASS_THROUGH =
  /^(PATH|HOME|TMPDIR|TZ|LANG|NODE_ENV|OTEL_\w+|FX_\w+|SCHEMES_CACHE_TTL_MS|RATE_LIMIT_DEFAULT)$/;

/** What every service shares: credentials, embedded defaults, loopback gRPC on free ports. */
export function sharedServiceEnv(env: NodeJS.ProcessEnv, credentials: SandboxCredentials): NodeJS.ProcessEnv {
  const passed = Object.fromEntries(Object.entries(env).filter(([name]) => PASS_THROUGH.test(name)));
  return {
    ...passed,
    HOST: '127.0.0.1',
    GRPC_PORT: '0',
    LOG_LEVEL: env.LOG_LEVEL || SANDBOX_LOG_LEVEL,
    MIGRATE_ON_START: 'true',
    DB_POOL_MAX: env.DB_POOL_MAX || SANDBOX_DB_POOL_MAX,
    PAYOUT_ADMIN_TOKEN: credentials.adminToken,
    WEBHOOK_SECRETS_KEY: credentials.webhookSecretsKey,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: privateTargetsAllowed(env) ? 'true' : 'false',
    WEBHOOK_RETRY_SCALE: env.WEBHOOK_RETRY_SCALE || SANDBOX_RETRY_SCALE,
    // Scaled retries are milliseconds to seconds apart: look for due ones often.
    WEBHOOK_POLL_MS: '100',
    // PGlite delivers no NOTIFY, so the outbox relay finds new events by polling: poll often.
    OUTBOX_POLL_MS: env.OUTBOX_POLL_MS || SANDBOX_OUTBOX_POLL_MS,
    // Telemetry only when the developer points it at a collector.
    OTEL_SDK_DISABLED: env.OTEL_EXPORTER_OTLP_ENDPOINT ? env.OTEL_SDK_DISABLED || 'false' : 'true',
  };
}

/**
 * Whether webhooks may go to private addresses (the developer's receiver on http://127.0.0.1): only
 * while the API is bound to loopback, and not when WEBHOOK_ALLOW_PRIVATE_TARGETS=false. Bound
 * beyond loopback, anyone holding the sandbox's key could register an internal address and read
 * the first KiB of its answer in the delivery's attempt log (sandbox/README.md "Configuration").
 */
export function privateTargetsAllowed(env: NodeJS.ProcessEnv): boolean {
  const host = env.HOST || '127.0.0.1';
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
  return loopback && env.WEBHOOK_ALLOW_PRIVATE_TARGETS !== 'false';
}

export type GatewayPlacement = {
  host: string;
  port: number;
  adminPort: number;
  databaseUrl: string;
  serviceUrls: { decoder: string; fx: string; payout: string; webhook: string };
};

/** The gateway's env: the shared one plus its ports, database and the services' gRPC URLs. */
export function gatewayEnv(
  env: NodeJS.ProcessEnv,
  shared: NodeJS.ProcessEnv,
  placement: GatewayPlacement,
): NodeJS.ProcessEnv {
  return {
    ...shared,
    DATABASE_URL: placement.databaseUrl,
    HOST: placement.host,
    PORT: String(placement.port),
    ADMIN_PORT: String(placement.adminPort),
    // In memory instead of Redis (docs/architecture.md "Deployment").
    RATE_LIMIT_BACKEND: 'memory',
    // The test helpers answer only here (docs/api/sandbox.md "Triggers").
    SANDBOX_MODE: 'true',
    DECODER_URL: placement.serviceUrls.decoder,
    FX_URL: placement.serviceUrls.fx,
    PAYOUT_URL: placement.serviceUrls.payout,
    WEBHOOK_URL: placement.serviceUrls.webhook,
    PUBLIC_DOCS_URL: env.PUBLIC_DOCS_URL || `http://localhost:${placement.port}/docs`,
  };
}
