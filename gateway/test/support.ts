import { randomBytes } from 'node:crypto';
import { startPayout } from '@qr-payout/payout';
import { createPgPool } from '@qr-payout/platform/db';
import type pg from 'pg';
import { generateApiKey, hashApiKey } from '../src/tenants/keys';
import { insertApiKey, insertTenant } from '../src/tenants/store';

// Shared by the gateway's integration tests: real infrastructure from env, isolated per run.

export const DATABASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/postgres';
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:56379';
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
    DATABASE_URL,
    DB_SCHEMA: opts.schema,
    DB_POOL_MAX: '4',
    REDIS_URL,
    RATE_LIMIT_KEY_PREFIX: opts.redisPrefix,
    DECODER_URL: opts.decoderUrl,
    ...(opts.payoutUrl ? { PAYOUT_URL: opts.payoutUrl } : {}),
    PAYOUT_ADMIN_TOKEN: `test-admin-${randomSuffix()}`,
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
  await insertTenant(pool, {
    id: tenantId,
    name: 'integration test',
    rateLimitPerMinute: opts.rateLimitPerMinute ?? null,
  });
  const key = generateApiKey();
  await insertApiKey(pool, { prefix: key.prefix, keyHash: hashApiKey(key.key), tenantId });
  return { tenantId, apiKey: key.key };
}

export function schemaPool(schema: string): pg.Pool {
  return createPgPool({ connectionString: DATABASE_URL, schema, max: 2 });
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
 * (ListRailLimits). close() stops it and drops the schema.
 */
export async function startSchemePayout(): Promise<{ url: string; close(): Promise<void> }> {
  const schema = `gw_payout_${randomSuffix()}`;
  const payout = await startPayout({
    DATABASE_URL,
    DB_SCHEMA: schema,
    DB_POOL_MAX: '2',
    MIGRATE_ON_START: 'true',
    GRPC_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    OUTBOX_RELAY_ENABLED: 'false',
    POLL_WORKER_ENABLED: 'false',
  });
  return {
    url: `http://127.0.0.1:${payout.grpcPort}`,
    async close() {
      await payout.close();
      const pool = schemaPool(schema);
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}
