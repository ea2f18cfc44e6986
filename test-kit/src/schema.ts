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
