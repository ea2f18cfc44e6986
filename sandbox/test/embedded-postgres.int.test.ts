import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPgPool, migrate, withTransaction } from '@qr-payout/platform/db';
import type pg from 'pg';
import { baseEnv, type RunningChild, spawnTs } from './child-process';

// PGlite's first start (initdb) takes a few seconds per instance.
jest.setTimeout(120_000);

let tmp: string;

const FIXTURE = 'sandbox/test/fixtures/embedded-postgres-server.ts';

/** Starts embedded databases in a child process; resolves with their URLs by schema. */
async function serveDatabases(
  dataDir: string | undefined,
  schemas: string[],
): Promise<{ urls: Record<string, string>; close: () => Promise<void>; server: RunningChild }> {
  const server = spawnTs(FIXTURE, baseEnv(), [dataDir ?? '-', ...schemas]);
  try {
    const line = await server.waitForLine(/^\{"ready":true.*\}$/, 90_000);
    const { urls } = JSON.parse(line[0]) as { urls: Record<string, string> };
    return {
      urls,
      server,
      close: async () => {
        expect(await server.stop()).toBe(0);
      },
    };
  } catch (err) {
    await server.stop('SIGKILL');
    throw err;
  }
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'sandbox-pglite-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function writeMigrations(dir: string): Promise<void> {
  await writeFile(
    path.join(dir, '0001_jobs.sql'),
    `CREATE TABLE jobs (
       id bigserial PRIMARY KEY,
       payload jsonb NOT NULL,
       state text NOT NULL DEFAULT 'due',
       created_at timestamptz NOT NULL DEFAULT now()
     );`,
  );
}

describe('embedded PostgreSQL through pglite-socket', () => {
  let pool: pg.Pool;
  let close: () => Promise<void>;
  const dataDir = () => path.join(tmp, 'jobs-db');
  const migrationsDir = () => path.join(tmp, 'migrations');

  beforeAll(async () => {
    await mkdir(migrationsDir(), { recursive: true });
    await writeMigrations(migrationsDir());
    const db = await serveDatabases(dataDir(), ['jobs']);
    close = db.close;
    pool = createPgPool({ connectionString: String(db.urls.jobs), schema: 'jobs', max: 3 });
  });

  afterAll(async () => {
    await pool?.end();
    await close?.();
  });

  it('applies migrations with the platform migrator, once', async () => {
    const first = await migrate(pool, { schema: 'jobs', dir: migrationsDir() });
    expect(first.applied).toEqual(['0001_jobs.sql']);
    const second = await migrate(pool, { schema: 'jobs', dir: migrationsDir() });
    expect(second.applied).toEqual([]);
    const { rows } = await pool.query<{ table_schema: string }>(
      `SELECT table_schema FROM information_schema.tables WHERE table_name = 'jobs'`,
    );
    expect(rows).toEqual([{ table_schema: 'jobs' }]);
  });

  it('runs parameterized queries from concurrent pool clients', async () => {
    const ids = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const { rows } = await pool.query<{ id: string; payload: { n: number } }>(
          'INSERT INTO jobs (payload) VALUES ($1) RETURNING id, payload',
          [{ n: i }],
        );
        expect(rows[0]?.payload).toEqual({ n: i });
        return rows[0]?.id;
      }),
    );
    expect(new Set(ids).size).toBe(40);
  });

  it('claims work with FOR UPDATE SKIP LOCKED in transactions', async () => {
    const claim = () =>
      withTransaction(pool, async (client) => {
        const { rows } = await client.query<{ id: string }>(
          `SELECT id FROM jobs WHERE state = 'due' ORDER BY id LIMIT 5 FOR UPDATE SKIP LOCKED`,
        );
        await client.query(`UPDATE jobs SET state = 'claimed' WHERE id = ANY($1::bigint[])`, [
          rows.map((r) => r.id),
        ]);
        return rows.map((r) => r.id);
      });
    const batches = await Promise.all(Array.from({ length: 8 }, claim));
    const claimed = batches.flat();
    // PGlite serializes transactions, so no two claims overlap and every row is claimed once.
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed).toHaveLength(40);
  });

  it('rolls back a failed transaction', async () => {
    await expect(
      withTransaction(pool, async (client) => {
        await client.query(`INSERT INTO jobs (payload) VALUES ('{"n":-1}')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await pool.query(`SELECT 1 FROM jobs WHERE payload = '{"n":-1}'`);
    expect(rows).toHaveLength(0);
  });

  it('keeps the data in its data dir across a restart', async () => {
    await pool.end();
    await close();
    const db = await serveDatabases(dataDir(), ['jobs']);
    close = db.close;
    pool = createPgPool({ connectionString: String(db.urls.jobs), schema: 'jobs', max: 3 });
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM jobs');
    expect(rows[0]?.n).toBe('40');
  });
});

describe('one instance per schema', () => {
  it('keeps each pool on its own schema', async () => {
    const dbs = await serveDatabases(undefined, ['alpha', 'beta']);
    expect(dbs.urls.alpha).not.toBe(dbs.urls.beta);
    const alpha = createPgPool({ connectionString: String(dbs.urls.alpha), schema: 'alpha', max: 2 });
    const beta = createPgPool({ connectionString: String(dbs.urls.beta), schema: 'beta', max: 2 });
    try {
      await alpha.query('CREATE TABLE things (name text)');
      await beta.query('CREATE TABLE things (name text)');
      await alpha.query(`INSERT INTO things VALUES ('a')`);
      await beta.query(`INSERT INTO things VALUES ('b')`);
      expect((await alpha.query('SELECT name FROM things')).rows).toEqual([{ name: 'a' }]);
      expect((await beta.query('SELECT name FROM things')).rows).toEqual([{ name: 'b' }]);
    } finally {
      await alpha.end();
      await beta.end();
      await dbs.close();
    }
  });
});
