import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPgPool, migrate, withTransaction } from '@qr-payout/platform/db';
import { createLogger } from '@qr-payout/platform/log';
import { testInfra } from '@qr-payout/test-kit/infra';
import type pg from 'pg';
import { LEGACY_CHECKSUMS_FILE, MigrationError } from '../src/db/migrate';

const DATABASE_URL = testInfra.databaseUrl;

describe('migrate (real PostgreSQL)', () => {
  const schema = `platform_test_${randomBytes(6).toString('hex')}`;
  let pool: pg.Pool;
  let dir: string;

  beforeAll(async () => {
    pool = createPgPool({ connectionString: DATABASE_URL, schema, max: 4, applicationName: 'platform-test' });
    dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    await writeFile(
      path.join(dir, '0001_create_widgets.sql'),
      'CREATE TABLE widgets (id text PRIMARY KEY, size int NOT NULL);',
    );
    await writeFile(
      path.join(dir, '0002_add_colour.sql'),
      "ALTER TABLE widgets ADD COLUMN colour text NOT NULL DEFAULT 'blue';",
    );
    await writeFile(path.join(dir, 'README.md'), 'not a migration');
  });

  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the schema and applies the files in order, then nothing on a second run', async () => {
    const first = await migrate(pool, { schema, dir });
    expect(first.applied).toEqual(['0001_create_widgets.sql', '0002_add_colour.sql']);
    const { rows } = await pool.query(
      `SELECT version, name FROM "${schema}".schema_migrations ORDER BY version`,
    );
    expect(rows).toEqual([
      { version: '0001', name: '0001_create_widgets.sql' },
      { version: '0002', name: '0002_add_colour.sql' },
    ]);
    // The pool's sessions resolve unqualified names in the schema.
    await pool.query('INSERT INTO widgets (id, size) VALUES ($1, $2)', ['w1', 3]);
    expect((await pool.query('SELECT colour FROM widgets WHERE id = $1', ['w1'])).rows).toEqual([
      { colour: 'blue' },
    ]);

    const second = await migrate(pool, { schema, dir });
    expect(second.applied).toEqual([]);
  });

  it('applies only the new file when one is added', async () => {
    await writeFile(path.join(dir, '0003_index_size.sql'), 'CREATE INDEX widgets_size ON widgets (size);');
    expect((await migrate(pool, { schema, dir })).applied).toEqual(['0003_index_size.sql']);
  });

  it('refuses to run when an applied file changed', async () => {
    const file = path.join(dir, '0002_add_colour.sql');
    await writeFile(file, "ALTER TABLE widgets ADD COLUMN colour text NOT NULL DEFAULT 'red';");
    await expect(migrate(pool, { schema, dir })).rejects.toThrow(MigrationError);
    await expect(migrate(pool, { schema, dir })).rejects.toThrow(/0002_add_colour\.sql was changed/);
    await writeFile(file, "ALTER TABLE widgets ADD COLUMN colour text NOT NULL DEFAULT 'blue';");
  });

  it('accepts a change to comments only, and records v2 checksums', async () => {
    const file = path.join(dir, '0002_add_colour.sql');
    const original = await readFile(file, 'utf8');
    await writeFile(
      file,
      `-- Why the colour (docs/architecture.md "Money and ids").\nALTER TABLE widgets\n  ADD COLUMN colour text NOT NULL DEFAULT 'blue'; /* the default */\n`,
    );
    try {
      expect((await migrate(pool, { schema, dir })).applied).toEqual([]);
    } finally {
      await writeFile(file, original);
    }
    const { rows } = await pool.query(`SELECT checksum FROM "${schema}".schema_migrations`);
    for (const row of rows) expect(row.checksum).toMatch(/^v2:[0-9a-f]{64}$/);
  });

  it('rolls back a failing file and records nothing for it', async () => {
    const bad = path.join(dir, '0004_broken.sql');
    await writeFile(bad, 'CREATE TABLE gadgets (id text); SELECT no_such_column FROM widgets;');
    await expect(migrate(pool, { schema, dir })).rejects.toThrow(/0004_broken\.sql failed/);
    const exists = await pool.query('SELECT to_regclass($1) AS t', [`"${schema}".gadgets`]);
    expect(exists.rows[0].t).toBeNull();
    await rm(bad);
  });

  it('is safe when replicas migrate at the same time', async () => {
    const raceSchema = `platform_race_${randomBytes(6).toString('hex')}`;
    const racePool = createPgPool({ connectionString: DATABASE_URL, schema: raceSchema, max: 6 });
    try {
      const results = await Promise.all(
        [1, 2, 3, 4].map(() => migrate(racePool, { schema: raceSchema, dir })),
      );
      const applied = results.flatMap((r) => r.applied).sort();
      expect(applied).toEqual(['0001_create_widgets.sql', '0002_add_colour.sql', '0003_index_size.sql']);
      const count = await racePool.query(`SELECT count(*)::int AS n FROM "${raceSchema}".schema_migrations`);
      expect(count.rows[0].n).toBe(3);
    } finally {
      await racePool.query(`DROP SCHEMA IF EXISTS "${raceSchema}" CASCADE`);
      await racePool.end();
    }
  });
});

describe('migrate as a role of its own (docs/operators.md "One database role per service")', () => {
  const suffix = randomBytes(6).toString('hex');
  const schema = `platform_role_${suffix}`;
  const role = `platform_role_${suffix}`;
  let admin: pg.Pool;
  let pool: pg.Pool;
  let dir: string;

  beforeAll(async () => {
    admin = createPgPool({
      connectionString: DATABASE_URL,
      schema: 'public',
      max: 1,
      applicationName: 'platform-test',
    });
    // The operator's set-up: a login role, its schema made for it, no CREATE on the database.
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${suffix}'`);
    await admin.query(`CREATE SCHEMA ${schema} AUTHORIZATION ${role}`);
    const url = new URL(DATABASE_URL);
    url.username = role;
    url.password = suffix;
    pool = createPgPool({
      connectionString: url.toString(),
      schema,
      max: 2,
      applicationName: 'platform-test',
    });
    dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    await writeFile(path.join(dir, '0001_create_widgets.sql'), 'CREATE TABLE widgets (id text PRIMARY KEY);');
  });

  afterAll(async () => {
    await pool.end();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies the files in the schema made for it, without CREATE on the database', async () => {
    await expect(pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)).rejects.toThrow(/permission denied/);
    expect((await migrate(pool, { schema, dir })).applied).toEqual(['0001_create_widgets.sql']);
    await pool.query('INSERT INTO widgets (id) VALUES ($1)', ['w1']);
    expect((await migrate(pool, { schema, dir })).applied).toEqual([]);
  });
});

describe('migrate: rows recorded with the old whole-file checksum', () => {
  const schema = `platform_legacy_${randomBytes(6).toString('hex')}`;
  const NAME = '0001_create_gadgets.sql';
  const SHIPPED = '-- Gadgets (an old citation).\nCREATE TABLE gadgets (id text PRIMARY KEY);\n';
  const wholeFile = (text: string) => createHash('sha256').update(text).digest('hex');
  let pool: pg.Pool;
  let dir: string;
  let lines: { msg: string; migration?: string }[];
  const logger = () =>
    createLogger({
      service: 'platform-test',
      destination: { write: (line: string) => lines.push(JSON.parse(line)) },
    });
  const upgradedLogs = () => lines.filter((line) => /checksum upgraded/.test(line.msg));
  const recorded = async () =>
    (await pool.query(`SELECT checksum FROM "${schema}".schema_migrations WHERE version = '0001'`)).rows[0]
      .checksum as string;
  // What a database migrated before v2 holds: the sha256 of the file it applied.
  const recordOldStyle = (checksum: string) =>
    pool.query(`UPDATE "${schema}".schema_migrations SET checksum = $1 WHERE version = '0001'`, [checksum]);

  beforeAll(async () => {
    pool = createPgPool({ connectionString: DATABASE_URL, schema, max: 2 });
    dir = await mkdtemp(path.join(tmpdir(), 'migrations-legacy-'));
    await writeFile(path.join(dir, NAME), SHIPPED);
    await writeFile(path.join(dir, LEGACY_CHECKSUMS_FILE), JSON.stringify({ [NAME]: wholeFile(SHIPPED) }));
    expect((await migrate(pool, { schema, dir })).applied).toEqual([NAME]);
    // The comment is then rewritten, as every migration's citations were.
    await writeFile(
      path.join(dir, NAME),
      '-- Gadgets (docs/architecture.md "Transactions").\nCREATE TABLE gadgets (id text PRIMARY KEY);\n',
    );
  });

  beforeEach(() => {
    lines = [];
  });

  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses an old-style checksum that is not the recorded legacy one, naming the file', async () => {
    await recordOldStyle(wholeFile('CREATE TABLE gadgets (id int PRIMARY KEY);\n'));
    await expect(migrate(pool, { schema, dir, logger: logger() })).rejects.toThrow(
      new RegExp(`${NAME.replace('.', '\\.')} was changed .*legacy-checksums\\.json`),
    );
    expect(upgradedLogs()).toEqual([]);
  });

  it('upgrades an old-style checksum equal to the legacy one to v2, once', async () => {
    await recordOldStyle(wholeFile(SHIPPED));
    expect((await migrate(pool, { schema, dir, logger: logger() })).applied).toEqual([]);
    const v2 = await recorded();
    expect(v2).toMatch(/^v2:[0-9a-f]{64}$/);
    expect(upgradedLogs()).toEqual([expect.objectContaining({ migration: NAME, level: 'info' })]);
    lines = [];
    expect((await migrate(pool, { schema, dir, logger: logger() })).applied).toEqual([]);
    expect(upgradedLogs()).toEqual([]);
    expect(await recorded()).toBe(v2);
  });

  it('then verifies the upgraded row as v2: a SQL change is refused naming the file', async () => {
    expect(await recorded()).toMatch(/^v2:/);
    await writeFile(
      path.join(dir, NAME),
      '-- Gadgets.\nCREATE TABLE gadgets (id text PRIMARY KEY, n int);\n',
    );
    await expect(migrate(pool, { schema, dir })).rejects.toThrow(
      /0001_create_gadgets\.sql was changed .*checksum mismatch/,
    );
  });
});

describe('withTransaction', () => {
  const schema = `platform_tx_${randomBytes(6).toString('hex')}`;
  let pool: pg.Pool;

  beforeAll(async () => {
    pool = createPgPool({ connectionString: DATABASE_URL, schema, max: 2 });
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await pool.query('CREATE TABLE notes (body text)');
  });

  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  it('commits on success and rolls back on throw', async () => {
    await withTransaction(pool, (client) => client.query("INSERT INTO notes VALUES ('kept')"));
    await expect(
      withTransaction(pool, async (client) => {
        await client.query("INSERT INTO notes VALUES ('dropped')");
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect((await pool.query('SELECT body FROM notes')).rows).toEqual([{ body: 'kept' }]);
  });
});
