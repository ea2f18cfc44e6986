import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from '../logger';
import { quoteSchema } from './pool';

type MigrateOptions = {
  /** The schema the migrations create and write into (created when missing). */
  schema: string;
  /** Folder of `NNNN_name.sql` files. */
  dir: string;
  logger?: Logger;
};

type MigrateResult = { applied: string[] };

export class MigrationError extends Error {
  override name = 'MigrationError';
}

const FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;

type MigrationFile = { version: string; name: string; sql: string; checksum: string };

async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((name) => FILE.test(name)).sort();
  const files: MigrationFile[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const version = name.slice(0, 4);
    if (seen.has(version)) throw new MigrationError(`two migrations numbered ${version} in ${dir}`);
    seen.add(version);
    const sql = await readFile(path.join(dir, name), 'utf8');
    files.push({ version, name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return files;
}

// A stable 64-bit advisory lock key per schema, so migrations of different services don't wait
// on each other but replicas of one service do.
function lockKey(schema: string): string {
  return BigInt.asIntN(
    64,
    BigInt(`0x${createHash('sha256').update(`migrate:${schema}`).digest('hex').slice(0, 16)}`),
  ).toString();
}

/**
 * Applies the files of `dir` not yet recorded in `<schema>.schema_migrations`, in order, each in
 * its own transaction, under an advisory lock. Forward only: a changed applied file is an error.
 */
export async function migrate(pool: pg.Pool, opts: MigrateOptions): Promise<MigrateResult> {
  const schema = quoteSchema(opts.schema);
  const files = await readMigrations(opts.dir);
  const client = await pool.connect();
  const key = lockKey(opts.schema);
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [key]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
           version text PRIMARY KEY,
           name text NOT NULL,
           checksum text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const { rows } = await client.query<{ version: string; name: string; checksum: string }>(
        `SELECT version, name, checksum FROM ${schema}.schema_migrations`,
      );
      const applied = new Map(rows.map((row) => [row.version, row]));
      for (const file of files) {
        const done = applied.get(file.version);
        if (done && done.checksum !== file.checksum) {
          throw new MigrationError(
            `migration ${file.name} was changed after it was applied to schema ${opts.schema} (checksum mismatch); add a new migration instead`,
          );
        }
      }
      const result: string[] = [];
      for (const file of files) {
        if (applied.has(file.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(`SET LOCAL search_path TO ${schema}`);
          await client.query(file.sql);
          await client.query(
            `INSERT INTO ${schema}.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)`,
            [file.version, file.name, file.checksum],
          );
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new MigrationError(`migration ${file.name} failed: ${(err as Error).message}`, {
            cause: err,
          });
        }
        result.push(file.name);
        opts.logger?.info({ schema: opts.schema, migration: file.name }, 'migration applied');
      }
      return { applied: result };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
    }
  } catch (err) {
    if (!(err instanceof MigrationError)) broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}
