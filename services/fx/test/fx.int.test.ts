import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { Health, HealthCheckResponse_ServingStatus } from '@qr-payout/proto/grpc/health/v1/health_pb';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import pg from 'pg';
import { type RunningFx, startFx } from '../src/index';

const ROOT = path.resolve(__dirname, '../../..');
const DATABASE_URL = requiredEnv('DATABASE_URL');
const run = promisify(execFile);

// Real PostgreSQL only (scripts/with-infra sets it); never a guessed default.
function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required for the integration tests (scripts/with-infra sets it)`);
  return value;
}

function testSchema(): string {
  return `fx_test_${randomBytes(6).toString('hex')}`;
}

function envFor(schema: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    DATABASE_URL,
    DB_SCHEMA: schema,
    DB_POOL_MAX: '2',
    MIGRATE_ON_START: 'true',
    GRPC_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

describe('fx service', () => {
  const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  const schemas: string[] = [];
  const running: RunningFx[] = [];

  async function start(extra: Record<string, string> = {}, schema = testSchema()) {
    if (!schemas.includes(schema)) schemas.push(schema);
    const fx = await startFx(envFor(schema, extra));
    running.push(fx);
    return { fx, schema, baseUrl: `http://127.0.0.1:${fx.grpcPort}` };
  }

  afterAll(async () => {
    await closeGrpcClients();
    await Promise.all(running.map((fx) => fx.close()));
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('starts on a free port, migrates its schema and answers grpc.health.v1.Health', async () => {
    const { schema, baseUrl } = await start();
    const health = createGrpcClient(Health, { baseUrl, timeoutMs: 2_000 });
    for (const service of ['', FxService.typeName]) {
      const { status } = await health.check({ service });
      expect({ service, status }).toEqual({ service, status: HealthCheckResponse_ServingStatus.SERVING });
    }
    const { rows } = await admin.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = 'quotes' ORDER BY ordinal_position`,
      [schema],
    );
    expect(Object.fromEntries(rows.map((row) => [row.column_name, row.data_type]))).toEqual({
      id: 'text',
      tenant_id: 'text',
      source_currency: 'text',
      target_currency: 'text',
      rate: 'numeric',
      mid_rate: 'numeric',
      spread_bps: 'integer',
      source_minor: 'bigint',
      target_minor: 'bigint',
      fee_minor: 'bigint',
      status: 'text',
      consumer_id: 'text',
      created_at: 'timestamp with time zone',
      expires_at: 'timestamp with time zone',
      confirmed_at: 'timestamp with time zone',
    });
    const { rows: indexes } = await admin.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'quotes_tenant_id_id_idx'`,
      [schema],
    );
    expect(indexes[0]?.indexdef).toContain('(tenant_id, id)');
  });

  it('lists the default currencies with their ISO 4217 minor units', async () => {
    const { baseUrl } = await start();
    const client = createGrpcClient(FxService, { baseUrl, timeoutMs: 2_000 });
    const { currencies } = await client.listCurrencies({});
    expect(currencies.map(({ code, minorUnits }) => `${code}:${minorUnits}`)).toEqual([
      'ARS:2',
      'BOB:2',
      'BRL:2',
      'COP:2',
      'EUR:2',
      'PEN:2',
      'USD:2',
    ]);
  });

  it('lists the currencies of FX_RATES when set, and a restart does not migrate twice', async () => {
    const schema = testSchema();
    const first = await start({}, schema);
    await first.fx.close();
    const { baseUrl } = await start(
      {
        FX_RATES: JSON.stringify({
          USD: { minor_units: 2, per_usd: '1' },
          CLP: { minor_units: 0, per_usd: '940' },
        }),
      },
      schema,
    );
    const client = createGrpcClient(FxService, { baseUrl, timeoutMs: 2_000 });
    const { currencies } = await client.listCurrencies({});
    expect(currencies.map(({ code, minorUnits }) => ({ code, minorUnits }))).toEqual([
      { code: 'CLP', minorUnits: 0 },
      { code: 'USD', minorUnits: 2 },
    ]);
    const { rows } = await admin.query(`SELECT version FROM "${schema}".schema_migrations`);
    expect(rows).toEqual([{ version: '0001' }]);
  });

  it('refuses to start on a bad FX_RATES, naming the variable', async () => {
    await expect(
      startFx(envFor(testSchema(), { FX_RATES: '{"BRL":{"minor_units":2,"per_usd":5.4}}' })),
    ).rejects.toThrow(/FX_RATES BRL\.per_usd must be a positive decimal string/);
  });

  it('keeps quotes consistent: a confirmed quote needs its consumer, money is positive', async () => {
    const { schema } = await start();
    const insert = (values: { id: string; status: string; consumer: string | null; target: number }) =>
      admin.query(
        `INSERT INTO "${schema}".quotes (id, tenant_id, source_currency, target_currency, rate, mid_rate,
           spread_bps, source_minor, target_minor, status, consumer_id, confirmed_at, expires_at)
         VALUES ($1, 'ten_a', 'USD', 'BRL', 5.40, 5.45, 90, 1852, $4, $2, $3,
           CASE WHEN $3::text IS NULL THEN NULL ELSE now() END, now() + interval '1 minute')`,
        [values.id, values.status, values.consumer, values.target],
      );
    await insert({ id: 'quo_01JD0000000000000000000001', status: 'open', consumer: null, target: 10_000 });
    await expect(
      insert({ id: 'quo_01JD0000000000000000000002', status: 'confirmed', consumer: null, target: 10_000 }),
    ).rejects.toThrow(/quotes_confirmed_has_consumer/);
    await expect(
      insert({ id: 'quo_01JD0000000000000000000003', status: 'open', consumer: null, target: 0 }),
    ).rejects.toThrow(/check constraint/);
    await expect(insert({ id: 'q_1', status: 'open', consumer: null, target: 10_000 })).rejects.toThrow(
      /check constraint/,
    );
  });

  it('`node src/main.ts migrate` applies the migrations and exits', async () => {
    const schema = testSchema();
    schemas.push(schema);
    await run(
      process.execPath,
      [
        '--conditions=development',
        '--import',
        'tsx',
        '--require',
        './services/platform/src/telemetry/preload.ts',
        'services/fx/src/main.ts',
        'migrate',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, ...envFor(schema), MIGRATE_ON_START: 'false', OTEL_SDK_DISABLED: 'true' },
      },
    );
    const { rows } = await admin.query(`SELECT version, name FROM "${schema}".schema_migrations`);
    expect(rows).toEqual([{ version: '0001', name: '0001_quotes.sql' }]);
  }, 30_000);
});
