// Row writes per table, from PostgreSQL's own counters (pg_stat_user_tables), so the baseline's
// "same row writes per payment" is measured on both sides rather than asserted.
import pg from 'pg';

/** `schema.table` → inserted, updated and deleted rows (cumulative counters). */
export type RowWriteCounters = Map<string, { ins: number; upd: number; del: number }>;

/** The schemas to read: `only` these, or every schema of the database `except` these. */
export type SchemaFilter = { only: readonly string[] } | { except: readonly string[] };

export async function readRowWrites(databaseUrl: string, schemas: SchemaFilter): Promise<RowWriteCounters> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // pg_stat_user_tables holds every user table of this database (the harness gives each run a
    // fresh one): a service's table missing from a hand-kept list would go uncounted.
    const [test, list] = 'only' in schemas ? ['= ANY($1)', schemas.only] : ['<> ALL($1)', schemas.except];
    const { rows } = await client.query<{ name: string; ins: string; upd: string; del: string }>(
      `SELECT schemaname || '.' || relname AS name, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_del AS del
         FROM pg_stat_user_tables WHERE schemaname ${test} ORDER BY 1`,
      [list],
    );
    return new Map(rows.map((r) => [r.name, { ins: Number(r.ins), upd: Number(r.upd), del: Number(r.del) }]));
  } finally {
    await client.end();
  }
}

export interface RowWritesPerUnit {
  /** Per table (`table` without its schema), rows per unit of work; tables with no writes left out. */
  tables: Array<{ schema: string; table: string; ins: number; upd: number; del: number }>;
  total: number;
}

/**
 * (after − before) / units per table. Backends report their counters when idle (PostgreSQL
 * flushes them within ~10 s) or when they exit, so read `after` once the load has been idle that
 * long.
 */
export function rowWritesPerUnit(
  before: RowWriteCounters,
  after: RowWriteCounters,
  units: number,
): RowWritesPerUnit {
  const tables: RowWritesPerUnit['tables'] = [];
  for (const [name, end] of after) {
    const start = before.get(name) ?? { ins: 0, upd: 0, del: 0 };
    const delta = { ins: end.ins - start.ins, upd: end.upd - start.upd, del: end.del - start.del };
    if (delta.ins + delta.upd + delta.del === 0) continue;
    tables.push({
      schema: name.slice(0, name.indexOf('.')),
      table: name.slice(name.indexOf('.') + 1),
      ins: delta.ins / units,
      upd: delta.upd / units,
      del: delta.del / units,
    });
  }
  return { tables, total: tables.reduce((n, t) => n + t.ins + t.upd + t.del, 0) };
}

/**
 * Committed database transactions so far in the database of `databaseUrl` (pg_stat_database): an
 * autocommit statement counts one, so per payment it approximates the statements sent.
 */
export async function readCommits(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}
