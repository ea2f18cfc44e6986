// The cause of the events a fault campaign once lost (docs/testing.md "Fault campaign", "Why events
// went missing"): the test infrastructure's PostgreSQL acknowledged commits before writing their
// WAL (`synchronous_commit=off`, for speed), and the campaign's "restart PostgreSQL" is an immediate
// stop, a crash. Deliveries the webhook dispatcher had committed (and then committed its Kafka
// offset past) vanished with the crash, so nothing delivered their events. Production's
// PostgreSQL never acknowledges a commit it could lose; the campaign's private infrastructure now
// runs it the same way (`INFRA_PG_CRASH_SAFE=1`). This shows the property the campaign relies on:
// every commit acknowledged before an immediate stop is there after the restart. With
// `crashSafe: false` it fails, losing the last fraction of a second of acknowledged commits.
import pg from 'pg';
import { type PrivateInfra, startPrivateInfra } from './faults/private-infra';

jest.setTimeout(120_000);

let infra: PrivateInfra;

beforeAll(async () => {
  infra = await startPrivateInfra(() => undefined);
});

afterAll(async () => {
  await infra?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('keeps every commit it acknowledged before an immediate stop (a crash)', async () => {
  const url = new URL(infra.databaseUrl);
  url.pathname = '/postgres';
  const setup = new pg.Client({ connectionString: url.toString() });
  await setup.connect();
  await setup.query('CREATE TABLE IF NOT EXISTS crash_probe (id integer PRIMARY KEY)');
  await setup.end();

  // Four writers commit one row at a time, as fast as they can, until the crash cuts them off.
  const acknowledged: number[] = [];
  let next = 0;
  const writer = async () => {
    const client = new pg.Client({ connectionString: url.toString() });
    client.on('error', () => undefined);
    await client.connect();
    try {
      for (;;) {
        const id = next++;
        await client.query('INSERT INTO crash_probe (id) VALUES ($1)', [id]);
        acknowledged.push(id);
      }
    } catch {
      // The crash ends the session.
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const writers = Promise.all([writer(), writer(), writer(), writer()]);
  await sleep(1_500);
  await infra.restartPostgres(500);
  await writers;

  const check = new pg.Client({ connectionString: url.toString() });
  await check.connect();
  const kept = new Set(
    (await check.query<{ id: number }>('SELECT id FROM crash_probe')).rows.map((r) => r.id),
  );
  await check.end();
  const lost = acknowledged.filter((id) => !kept.has(id));
  console.log(`${acknowledged.length} commits acknowledged before the crash, ${lost.length} lost`);
  expect(acknowledged.length).toBeGreaterThan(100);
  expect(lost).toEqual([]);
});
