// `node gateway/src/main.ts migrate` as the chart's migration Job runs it: with DATABASE_URL and
// plain settings only (charts/qr-payout/secret-keys.json), no admin token, no Redis.
import { freshSchema } from '@qr-payout/test-kit/schema';
import { runMigrateCommand } from '@qr-payout/test-kit/service';

jest.setTimeout(60_000);

test('migrates the gateway schema with the database as its only secret', async () => {
  const schema = freshSchema('gw_migrate');
  try {
    await runMigrateCommand('gateway/src/main.ts', schema.name);
    const { rows } = await schema
      .pool()
      .query<{ tables: string[] }>(
        'SELECT array_agg(table_name::text ORDER BY table_name) AS tables FROM information_schema.tables WHERE table_schema = $1',
        [schema.name],
      );
    expect(rows[0]?.tables).toEqual(expect.arrayContaining(['api_keys', 'tenants']));
  } finally {
    await schema.drop();
  }
});
