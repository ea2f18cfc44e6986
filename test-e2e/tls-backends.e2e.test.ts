// TLS to PostgreSQL and Redis with a private CA (docs/architecture.md "TLS to
// PostgreSQL and Redis"): the services reach PostgreSQL with sslmode=verify-full and the CA in
// sslrootcert, the gateway reaches Redis over rediss:// with REDIS_TLS_CA_FILE. A pay goes through,
// every service's database session is encrypted (pg_stat_ssl), and a client that does not trust
// the CA is refused by both.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type PrivateInfra, startPrivateInfra } from './faults/private-infra';
import { type System, startSystem } from './harness';
import { call } from './support/http';

jest.setTimeout(180_000);

let infra: PrivateInfra;
let system: System;

const verified = (url: string, caFile?: string) => {
  const parsed = new URL(url);
  parsed.searchParams.set('sslmode', 'verify-full');
  if (caFile) parsed.searchParams.set('sslrootcert', caFile);
  return parsed.toString();
};

beforeAll(async () => {
  infra = await startPrivateInfra(() => undefined, { tls: true });
  const tls = infra.tls!;
  system = await startSystem({
    infra: {
      databaseUrl: verified(infra.databaseUrl, tls.pgCaFile),
      redisUrl: tls.redisUrl,
      kafkaBrokers: infra.kafkaBrokers,
    },
    gatewayEnv: { REDIS_TLS_CA_FILE: tls.redisCaFile },
  });
}, 300_000);

afterAll(async () => {
  await system?.stop();
  await infra?.stop();
}, 60_000);

test('a pay goes through with every service on TLS to PostgreSQL and the gateway on TLS to Redis', async () => {
  const tenant = await system.createTenant(`e2e-tls-${randomBytes(4).toString('hex')}`);
  const paid = await call(system.gatewayUrl, '/v1/pay', {
    apiKey: tenant.apiKey,
    body: JSON.stringify({ qr_string: PIX_WITHOUT_AMOUNT, amount: 12.5, ...PAYER }),
    contentType: 'application/json',
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(paid.status).toBe(200);
  expect((paid.json!.transaction as { status: string }).status).toBe('completed');

  // Every session the services hold on the run's database is encrypted.
  const db = new pg.Pool({ connectionString: system.databaseUrl, max: 1 });
  try {
    const { rows } = await db.query<{ application_name: string; ssl: boolean }>(
      `SELECT a.application_name, s.ssl FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid)
        WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.application_name <> ''`,
    );
    const names = new Set(rows.map((r) => r.application_name));
    for (const service of ['gateway', 'fx', 'payout', 'webhook']) expect(names).toContain(service);
    expect(rows.filter((r) => !r.ssl)).toEqual([]);
  } finally {
    await db.end();
  }
});

test('refuses a client that does not trust the CA, on PostgreSQL and on Redis', async () => {
  const client = new pg.Client({ connectionString: verified(infra.databaseUrl) });
  await expect(client.connect()).rejects.toThrow(/certificate/);
  await client.end().catch(() => undefined);

  const untrusting = new Redis(infra.tls!.redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  untrusting.on('error', () => undefined);
  await expect(untrusting.connect()).rejects.toThrow();
  untrusting.disconnect();

  const trusting = new Redis(infra.tls!.redisUrl, {
    lazyConnect: true,
    tls: { ca: [readFileSync(infra.tls!.redisCaFile, 'utf8')] },
  });
  await trusting.connect();
  expect(await trusting.ping()).toBe('PONG');
  trusting.disconnect();
});
