// docs/operators.md "One database role per service": each service connects as a login role of its
// own that owns only its schema, made beforehand, with no CREATE on the database (the decoder has
// no database at all). The whole system migrates, pays and delivers webhooks that way, every table
// is owned by its service's role, and no role can read another service's tables.
import { randomBytes } from 'node:crypto';
import { type System, startSystem, type TestTenant } from './harness';
import { onServer, SCHEMA_OWNERS } from './harness/database';
import { type PublicTransaction, payPix } from './support/pay';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(120_000);

let system: System;
let tenant: TestTenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  system = await startSystem({ databaseRoles: true, serviceEnv: { payout: { EXECUTE_WAIT_MS: '2000' } } });
  tenant = await system.createTenant(`e2e-roles-${randomBytes(4).toString('hex')}`);
  receiver.setSecrets([tenant.signingSecret]);
  await system.admin.createWebhookEndpoint({
    endpoint: { tenantId: tenant.tenantId, url: `${receiver.url}/roles-hook`, eventTypes: ['*'] },
  });
}, 240_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
}, 60_000);

/** Each service's role name, from the superuser's view of who owns which schema. */
async function schemaOwners(): Promise<Record<string, string>> {
  return onServer(system.databaseUrl, async (client) => {
    const { rows } = await client.query<{ schema: string; owner: string }>(
      `SELECT nspname AS schema, pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = ANY($1)`,
      [[...SCHEMA_OWNERS]],
    );
    return Object.fromEntries(rows.map((row) => [row.schema, row.owner]));
  });
}

test('a payment completes and its webhook is delivered, each service as its own role', async () => {
  const res = await payPix(system.gatewayUrl, tenant.apiKey, 10);
  expect(res.status).toBe(200);
  expect((res.json?.transaction as PublicTransaction | undefined)?.status).toBe('completed');
  await receiver.waitFor(
    (all) => all.some((hook) => hook.envelope.event_type === 'transaction.completed'),
    30_000,
  );
});

test("every table was made by its service's migrations, as its role", async () => {
  const owners = await schemaOwners();
  expect(Object.keys(owners).sort()).toEqual([...SCHEMA_OWNERS].sort());
  const tables = await onServer(system.databaseUrl, async (client) => {
    const { rows } = await client.query<{ schema: string; table: string; owner: string }>(
      `SELECT schemaname AS schema, tablename AS table, tableowner AS owner FROM pg_tables WHERE schemaname = ANY($1)`,
      [[...SCHEMA_OWNERS]],
    );
    return rows;
  });
  // schema_migrations and at least one table of the service's own, in every schema.
  for (const schema of SCHEMA_OWNERS) {
    expect(tables.filter((t) => t.schema === schema).length).toBeGreaterThanOrEqual(2);
  }
  expect(tables.filter((t) => t.owner !== owners[t.schema])).toEqual([]);
});

test("no service's role can read another service's tables", async () => {
  const tables = await onServer(system.databaseUrl, async (client) => {
    const { rows } = await client.query<{ schema: string }>(
      `SELECT DISTINCT ON (schemaname) schemaname AS schema FROM pg_tables WHERE schemaname = ANY($1)`,
      [[...SCHEMA_OWNERS]],
    );
    return rows.map((row) => row.schema);
  });
  expect(tables.sort()).toEqual([...SCHEMA_OWNERS].sort());
  const refused: string[] = [];
  for (const reader of SCHEMA_OWNERS) {
    const url = system.serviceDatabaseUrls?.[reader];
    if (url === undefined) throw new Error('startSystem made no per-service roles');
    for (const other of SCHEMA_OWNERS.filter((schema) => schema !== reader)) {
      const outcome = await onServer(url, (client) =>
        client.query(`SELECT count(*) FROM ${other}.schema_migrations`).then(
          () => 'read',
          (err: Error) => err.message,
        ),
      );
      if (/permission denied for schema/.test(outcome)) refused.push(`${reader}→${other}`);
    }
    // Its own schema it reads.
    await onServer(url, (client) => client.query(`SELECT count(*) FROM ${reader}.schema_migrations`));
  }
  expect(refused).toHaveLength(SCHEMA_OWNERS.length * (SCHEMA_OWNERS.length - 1));
});
