import { randomBytes } from 'node:crypto';
import { loadDecoderConfig, startDecoder } from '@qr-payout/decoder';
import { loadPayoutConfig, type RunningPayout, startPayout } from '@qr-payout/payout';
import { createPgPool } from '@qr-payout/platform/db';
import type { Logger } from '@qr-payout/platform/log';
import { testInfra } from '@qr-payout/test-kit/infra';
import { type ServiceOnFreshSchema, serviceEnv, startOnFreshSchema } from '@qr-payout/test-kit/service';
import type pg from 'pg';
import { checkResponsesAgainstRoutes } from '../src/http/routes/response-check';
import { loadGatewayConfig, type RunningGateway, startGateway } from '../src/index';
import { generateApiKey, hashApiKey } from '../src/tenants/keys';
import { createTenantStore } from '../src/tenants/store';

// Shared by the gateway's integration tests: real infrastructure from env
// (@qr-payout/test-kit/infra), isolated per run.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function randomSuffix(): string {
  return randomBytes(6).toString('hex');
}

/** The env of a gateway on free ports, in a schema and Redis namespace of its own. */
export function gatewayEnv(opts: {
  schema: string;
  redisPrefix: string;
  decoderUrl: string;
  payoutUrl?: string;
}): NodeJS.ProcessEnv {
  return {
    PORT: '0',
    ADMIN_PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: testInfra.databaseUrl,
    DB_SCHEMA: opts.schema,
    DB_POOL_MAX: '4',
    REDIS_URL: testInfra.redisUrl,
    RATE_LIMIT_KEY_PREFIX: opts.redisPrefix,
    DECODER_URL: opts.decoderUrl,
    ...(opts.payoutUrl ? { PAYOUT_URL: opts.payoutUrl } : {}),
    PAYOUT_ADMIN_TOKEN: `test-admin-${randomBytes(16).toString('hex')}`,
    MIGRATE_ON_START: 'true',
    LOG_LEVEL: 'error',
    AUTH_FAILURE_LIMIT: '5',
  };
}

/** Stores a tenant and a key straight in the gateway's tables; returns the key in clear. */
export async function seedTenant(
  pool: pg.Pool,
  opts: { rateLimitPerMinute?: number | null } = {},
): Promise<{ tenantId: string; apiKey: string }> {
  const tenantId = `ten_test_${randomSuffix()}`;
  const tenants = createTenantStore(pool);
  await tenants.insertTenant({
    id: tenantId,
    name: 'integration test',
    rateLimitPerMinute: opts.rateLimitPerMinute ?? null,
  });
  const key = generateApiKey();
  await tenants.insertApiKey({ prefix: key.prefix, keyHash: hashApiKey(key.key), tenantId });
  return { tenantId, apiKey: key.key };
}

export function schemaPool(schema: string): pg.Pool {
  return createPgPool({ connectionString: testInfra.databaseUrl, schema, max: 2 });
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
export type HttpResponse = { status: number; headers: Headers; text: string; json(): any };

export async function request(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpResponse> {
  const res = await fetch(baseUrl + path, {
    method: init.method ?? 'GET',
    headers: init.headers ?? {},
    body: init.body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/**
 * A real payout in a schema of its own, without its workers: GET /v1/schemes shows its rail limits
 * (ListRailLimits). stop() stops it and drops the schema.
 */
export function startSchemePayout(): Promise<ServiceOnFreshSchema<RunningPayout>> {
  return startOnFreshSchema('gw_payout', (env) => startPayout(loadPayoutConfig(env)), {
    OUTBOX_RELAY_ENABLED: 'false',
    POLL_WORKER_ENABLED: 'false',
  });
}

export type TestGateway = {
  gateway: RunningGateway;
  /** The public API's base URL. */
  base: string;
  /** A pool on the gateway's schema (seedTenant, direct reads). */
  pool: pg.Pool;
  /** RATE_LIMIT_KEY_PREFIX: the Redis keys this gateway writes start with it. */
  redisPrefix: string;
  /** The env the gateway was configured from (PAYOUT_ADMIN_TOKEN and the rest). */
  env: NodeJS.ProcessEnv;
  /** Stops the gateway, the decoder and payout, and drops the gateway's schema. */
  stop(): Promise<void>;
};

/**
 * The whole gateway as startGateway builds it, in a schema `<schemaPrefix>_<hex>` and Redis prefix of
 * its own, over the real decoder (dynamic Pix locations on 127.0.0.1:9 go over plain http, where
 * nothing listens: a PSP that is down) and a real payout without workers. `env` adds to or
 * overrides the gateway's env (FX_URL, RATE_LIMIT_BACKEND, ...).
 */
export async function startTestGateway(opts: {
  schemaPrefix: string;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
}): Promise<TestGateway> {
  const schema = `${opts.schemaPrefix}_${randomSuffix()}`;
  const redisPrefix = `test:${opts.schemaPrefix}:${randomSuffix()}:`;
  const payout = await startSchemePayout();
  const decoder = await startDecoder(
    loadDecoderConfig(serviceEnv({ LOG_LEVEL: 'error', PIX_LOCATION_HTTP_HOSTS: '127.0.0.1:9' })),
  );
  const env = {
    ...gatewayEnv({ schema, redisPrefix, decoderUrl: decoder.url, payoutUrl: payout.url }),
    ...opts.env,
  };
  const gateway = await startGateway(loadGatewayConfig(env), {
    ...(opts.logger ? { logger: opts.logger } : {}),
    onPublicApp: checkResponsesAgainstRoutes,
  });
  const pool = schemaPool(schema);
  return {
    gateway,
    base: gateway.url,
    pool,
    redisPrefix,
    env,
    async stop() {
      await gateway.stop();
      await decoder.stop();
      await payout.stop();
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}
