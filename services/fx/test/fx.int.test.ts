import { readdirSync } from 'node:fs';
import path from 'node:path';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { Health, HealthCheckResponse_ServingStatus } from '@qr-payout/proto/grpc/health/v1/health_pb';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { testInfra } from '@qr-payout/test-kit/infra';
import { freshSchema, type TestSchema } from '@qr-payout/test-kit/schema';
import { databaseEnv, runMigrateCommand, serviceEnv } from '@qr-payout/test-kit/service';
import pg from 'pg';
import { loadFxConfig, type RunningFx, startFx } from '../src/index';

// Every migration file of the service, as schema_migrations records it once applied.
const MIGRATIONS = readdirSync(path.join(__dirname, '..', 'migrations'))
  .filter((file) => /^\d{4}_.+\.sql$/.test(file))
  .sort()
  .map((name) => ({ version: name.slice(0, 4), name }));

describe('fx service', () => {
  const admin = new pg.Pool({ connectionString: testInfra.databaseUrl, max: 2 });
  const schemas: TestSchema[] = [];
  const running: RunningFx[] = [];

  /** A fresh schema's name; afterAll drops it. */
  function testSchema(): string {
    const schema = freshSchema('fx_test');
    schemas.push(schema);
    return schema.name;
  }

  const envFor = (schema: string, extra: Record<string, string> = {}) =>
    serviceEnv({ ...databaseEnv(schema), ...extra });

  async function start(extra: Record<string, string> = {}, schema = testSchema()) {
    const fx = await startFx(loadFxConfig(envFor(schema, extra)));
    running.push(fx);
    return { fx, schema, baseUrl: fx.url };
  }

  afterAll(async () => {
    await closeGrpcClients();
    await Promise.all(running.map((fx) => fx.stop()));
    await Promise.all(schemas.map((schema) => schema.drop()));
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
    await first.fx.stop();
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
    const { rows } = await admin.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(rows).toEqual(MIGRATIONS.map(({ version }) => ({ version })));
  });

  it('refuses a bad FX_RATES before starting, naming the variable', () => {
    expect(() =>
      loadFxConfig(envFor(testSchema(), { FX_RATES: '{"BRL":{"minor_units":2,"per_usd":5.4}}' })),
    ).toThrow(/FX_RATES BRL\.per_usd must be a positive decimal string/);
  });

  it('refuses at start an FX_RATES currency whose digits disagree with ISO 4217, or that it lacks', () => {
    const load = (rates: object) => () =>
      loadFxConfig(envFor(testSchema(), { FX_RATES: JSON.stringify(rates) }));
    expect(load({ KWD: { minor_units: 2, per_usd: '0.307' } })).toThrow(
      /FX_RATES KWD\.minor_units must be 3, the ISO 4217 digits of KWD/,
    );
    expect(load({ XYZ: { minor_units: 2, per_usd: '1' } })).toThrow(
      /FX_RATES XYZ is not an ISO 4217 currency with minor-unit digits/,
    );
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
    await runMigrateCommand('services/fx/src/main.ts', schema);
    const { rows } = await admin.query(
      `SELECT version, name FROM "${schema}".schema_migrations ORDER BY version`,
    );
    expect(MIGRATIONS.map(({ name }) => name)).toEqual(['0001_quotes.sql', '0002_quotes_expiry_index.sql']);
    expect(rows).toEqual(MIGRATIONS);
  }, 30_000);
});
