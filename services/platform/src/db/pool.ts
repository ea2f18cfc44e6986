import pg from 'pg';

type PgPoolOptions = {
  connectionString: string;
  /** Every session of the pool uses `search_path = <schema>` (the service's own schema). */
  schema: string;
  /** Pool size; services read it from DB_POOL_MAX (default 10). */
  max?: number;
  applicationName?: string;
  /** Called with errors of idle clients, which pg would otherwise throw at the process. */
  onError?: (err: Error) => void;
};

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema name double-quoted for SQL, after checking it is a plain identifier. */
export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  return `"${schema}"`;
}

/** A pg.Pool whose sessions resolve unqualified names in `schema`. int8 columns come back as strings. */
export function createPgPool(opts: PgPoolOptions): pg.Pool {
  const searchPath = quoteSchema(opts.schema);
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? opts.schema,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    // Awaited before the new client is handed out. A SET rather than a startup `options`
    // parameter, which the sandbox's PGlite socket does not honour.
    onConnect: async (client) => {
      await client.query(`SET search_path TO ${searchPath}`);
    },
  });
  pool.on('error', (err) => opts.onError?.(err));
  // pg-pool listens for errors only on idle clients: a checked-out client whose server goes away
  // between two queries (e.g. a transaction held across a Kafka publish) would emit 'error' to no
  // listener and end the process. Its query in flight rejects on its own, its next query fails,
  // and pg-pool drops it at release, so the event itself needs no handling.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

type TransactionOptions = {
  /**
   * Ends the session if the transaction sits idle longer than this (PostgreSQL's
   * idle_in_transaction_session_timeout, LOCAL to the transaction): for a transaction that holds
   * row locks across a call to another system, so a hung call cannot hold them forever.
   */
  idleTimeoutMs?: number;
};

/** Runs `fn` in BEGIN/COMMIT on one client; ROLLBACK when it throws. */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  opts: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    // SET takes no bind parameter: the timeout is an integer we compute. Sent with BEGIN, one
    // round trip; LOCAL, so the pooled connection is back to its defaults at COMMIT or ROLLBACK.
    await client.query(
      opts.idleTimeoutMs === undefined
        ? 'BEGIN'
        : `BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${Math.max(1, Math.trunc(opts.idleTimeoutMs))}`,
    );
    const result = await fn(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
      client.release();
    } catch (rollbackErr) {
      // The connection is in an unknown state: drop it rather than return it to the pool.
      client.release(rollbackErr instanceof Error ? rollbackErr : true);
    }
    throw err;
  }
}
