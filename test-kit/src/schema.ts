// @qr-payout/test-kit/schema: a PostgreSQL schema of a suite's own (docs/testing.md "Environment
// variables the tests read": random schema names, each test cleans up what it created).
import { randomBytes } from 'node:crypto';
import { createPgPool } from '@qr-payout/platform/db';
import type pg from 'pg';
import { testInfra } from './infra';

/** `<prefix>_<12 hex>`: a schema name, Redis key prefix or id part no other run uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export type TestSchema = {
  /** Its name, for DB_SCHEMA and for queries that qualify tables (`"${name}".transactions`). */
  readonly name: string;
  /** A pool whose search_path is this schema; drop() ends it. */
  pool(max?: number): pg.Pool;
  /** Drops the schema with everything in it and ends the pools pool() made. Idempotent. */
  drop(): Promise<void>;
};

/**
 * A schema name nothing else uses; the schema itself is created by whoever migrates into it (a
 * service with MIGRATE_ON_START=true, or the test's own migrate call).
 */
export function freshSchema(prefix: string): TestSchema {
  const name = uniqueName(prefix);
  const pools: pg.Pool[] = [];
  let dropped: Promise<void> | undefined;
  return {
    name,
    pool(max = 2) {
      const pool = createPgPool({ connectionString: testInfra.databaseUrl, schema: name, max });
      pools.push(pool);
      return pool;
    },
    drop() {
      dropped ??= (async () => {
        const admin = createPgPool({ connectionString: testInfra.databaseUrl, schema: 'public', max: 1 });
        try {
          await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
        } finally {
          await Promise.all([admin, ...pools].map((pool) => pool.end()));
        }
      })();
      return dropped;
    },
  };
}

/**
 * The value lists of the schema's `CHECK (column IN (...))` constraints, keyed `table.column`, as
 * PostgreSQL holds them after every migration (a later migration may have replaced a constraint):
 * what the vocabulary tests compare with their TypeScript source.
 */
export async function checkedValueLists(pool: pg.Pool, schema: string): Promise<Map<string, string[]>> {
  const { rows } = await pool.query<{ table: string; column: string; def: string }>(
    `SELECT c.conrelid::regclass::text AS table, a.attname AS column, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c
       JOIN pg_namespace n ON n.oid = c.connamespace
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'c' AND n.nspname = $1 AND cardinality(c.conkey) = 1
        AND pg_get_constraintdef(c.oid) LIKE '%= ANY (ARRAY[%'`,
    [schema],
  );
  const lists = new Map<string, string[]>();
  for (const row of rows) {
    const values = [...row.def.matchAll(/'((?:[^']|'')*)'::text/g)].map((m) =>
      (m[1] ?? '').replaceAll("''", "'"),
    );
    lists.set(`${row.table.split('.').pop()}.${row.column}`, values);
  }
  return lists;
}
