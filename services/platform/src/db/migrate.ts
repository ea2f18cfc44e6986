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
  /** Each statement's client-side deadline (pg `query_timeout`), the advisory lock's wait included. */
  queryTimeoutMs?: number;
};

/** Longer than any migration we ship takes; a Job on a silent link fails instead of hanging. */
const MIGRATION_QUERY_TIMEOUT_MS = 600_000;

type MigrateResult = { applied: string[] };

export class MigrationError extends Error {
  override name = 'MigrationError';
}

const FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;

/** Beside the migrations: file name → the whole-file sha256 databases stored before `v2:`. */
export const LEGACY_CHECKSUMS_FILE = 'legacy-checksums.json';

const V2 = 'v2:';

type MigrationFile = { version: string; name: string; sql: string; checksum: string; legacy?: string };

const IDENTIFIER_CHAR = /[A-Za-z0-9_$]/;

/**
 * The SQL of a migration without its comments: `-- …` to the end of the line and `/* … *\/`
 * (nested, as PostgreSQL reads them) become a space outside string literals, quoted identifiers and
 * dollar-quoted bodies, then every run of whitespace outside those becomes one space. Literals,
 * quoted identifiers and dollar-quoted bodies are kept byte for byte.
 */
export function sqlWithoutComments(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  const space = () => {
    if (out !== '' && !out.endsWith(' ')) out += ' ';
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? n : end;
      space();
    } else if (c === '/' && text[i + 1] === '*') {
      let depth = 0;
      while (i < n) {
        if (text.startsWith('/*', i)) {
          depth++;
          i += 2;
        } else if (text.startsWith('*/', i)) {
          depth--;
          i += 2;
          if (depth === 0) break;
        } else i++;
      }
      space();
    } else if (/\s/.test(c)) {
      while (i < n && /\s/.test(text[i]!)) i++;
      space();
    } else if (c === "'" || c === '"') {
      // E'…' strings take backslash escapes; every quoted text ends at an undoubled quote.
      const escapes = c === "'" && /[Ee]/.test(text[i - 1] ?? '') && !IDENTIFIER_CHAR.test(text[i - 2] ?? '');
      let j = i + 1;
      while (j < n) {
        if (escapes && text[j] === '\\') j += 2;
        else if (text[j] === c && text[j + 1] === c) j += 2;
        else if (text[j] === c) break;
        else j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '$' && !IDENTIFIER_CHAR.test(text[i - 1] ?? '')) {
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(
        text.slice(i, i + 130),
      )?.[0];
      const end = tag ? text.indexOf(tag, i + tag.length) : -1;
      const stop = tag ? (end === -1 ? n : end + tag.length) : i + 1;
      out += text.slice(i, stop);
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out.trimEnd();
}

/** What `schema_migrations.checksum` records: the sha256 of the SQL, its comments left out. */
export function migrationChecksum(text: string): string {
  return `${V2}${sha256(sqlWithoutComments(text))}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function readLegacyChecksums(dir: string): Promise<Map<string, string>> {
  const file = path.join(dir, LEGACY_CHECKSUMS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new MigrationError(`${file} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new MigrationError(`${file} must map migration file names to sha256 hex digests`);
  }
  const legacy = new Map<string, string>();
  for (const [name, digest] of Object.entries(parsed)) {
    if (typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest)) {
      throw new MigrationError(`${file}: ${name} is not a sha256 hex digest`);
    }
    legacy.set(name, digest);
  }
  return legacy;
}

async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((name) => FILE.test(name)).sort();
  const legacy = await readLegacyChecksums(dir);
  const files: MigrationFile[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const version = name.slice(0, 4);
    if (seen.has(version)) throw new MigrationError(`two migrations numbered ${version} in ${dir}`);
    seen.add(version);
    const sql = await readFile(path.join(dir, name), 'utf8');
    const old = legacy.get(name);
    files.push({ version, name, sql, checksum: migrationChecksum(sql), ...(old ? { legacy: old } : {}) });
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
 * its own transaction, under an advisory lock. Forward only: an applied file whose SQL changed is
 * an error. The recorded checksum is `v2:` + the sha256 of the SQL without its comments
 * (`migrationChecksum`), so a comment may be reworded (they cite our docs) without touching any
 * database. Rows recorded before that hold the sha256 of the whole file, with no prefix: such a
 * row is upgraded to `v2:` (logged once per migration) only when it equals the digest kept for
 * that file in `dir`'s `legacy-checksums.json`, i.e. the database applied exactly the text we
 * shipped; any other old-style value is refused like a changed file (platform README "PostgreSQL:
 * `db`").
 */
export async function migrate(pool: pg.Pool, opts: MigrateOptions): Promise<MigrateResult> {
  const schema = quoteSchema(opts.schema);
  const files = await readMigrations(opts.dir);
  const client = await pool.connect();
  // The pool's query deadline is for requests; a migration may wait for another replica's lock
  // and build an index for minutes (docs/architecture.md "Deadlines").
  const queryTimeout = opts.queryTimeoutMs ?? MIGRATION_QUERY_TIMEOUT_MS;
  const run = <R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) =>
    client.query<R>({ text, values, query_timeout: queryTimeout } as pg.QueryConfig);
  const key = lockKey(opts.schema);
  let broken: Error | undefined;
  try {
    await run('SELECT pg_advisory_lock($1::bigint)', [key]);
    try {
      // A schema made beforehand for the service's own role (docs/operators.md "One database role
      // per service") is used as it is: CREATE SCHEMA, even IF NOT EXISTS, asks for CREATE on the
      // whole database, which such a role is not given.
      const { rowCount } = await run('SELECT 1 FROM pg_namespace WHERE nspname = $1', [opts.schema]);
      if (rowCount === 0) await run(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await run(
        `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
           version text PRIMARY KEY,
           name text NOT NULL,
           checksum text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const { rows } = await run<{ version: string; name: string; checksum: string }>(
        `SELECT version, name, checksum FROM ${schema}.schema_migrations`,
      );
      const applied = new Map(rows.map((row) => [row.version, row]));
      const upgrades: MigrationFile[] = [];
      for (const file of files) {
        const done = applied.get(file.version);
        if (!done || done.checksum === file.checksum) continue;
        if (!done.checksum.startsWith(V2) && file.legacy !== undefined && done.checksum === file.legacy) {
          upgrades.push(file);
          continue;
        }
        const why = done.checksum.startsWith(V2)
          ? 'checksum mismatch'
          : `old-style checksum not the one in ${LEGACY_CHECKSUMS_FILE}`;
        throw new MigrationError(
          `migration ${file.name} was changed after it was applied to schema ${opts.schema} (${why}); add a new migration instead`,
        );
      }
      if (upgrades.length > 0) {
        await run('BEGIN');
        try {
          for (const file of upgrades) {
            await run(`UPDATE ${schema}.schema_migrations SET checksum = $2 WHERE version = $1`, [
              file.version,
              file.checksum,
            ]);
          }
          await run('COMMIT');
        } catch (err) {
          await run('ROLLBACK');
          throw err;
        }
        for (const file of upgrades) {
          opts.logger?.info(
            { schema: opts.schema, migration: file.name },
            'migration checksum upgraded to v2 (SQL without comments)',
          );
        }
      }
      const result: string[] = [];
      for (const file of files) {
        if (applied.has(file.version)) continue;
        await run('BEGIN');
        try {
          await run(`SET LOCAL search_path TO ${schema}`);
          await run(file.sql);
          await run(`INSERT INTO ${schema}.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)`, [
            file.version,
            file.name,
            file.checksum,
          ]);
          await run('COMMIT');
        } catch (err) {
          await run('ROLLBACK');
          throw new MigrationError(`migration ${file.name} failed: ${(err as Error).message}`, {
            cause: err,
          });
        }
        result.push(file.name);
        opts.logger?.info({ schema: opts.schema, migration: file.name }, 'migration applied');
      }
      return { applied: result };
    } finally {
      await run('SELECT pg_advisory_unlock($1::bigint)', [key]);
    }
  } catch (err) {
    if (!(err instanceof MigrationError)) broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}
