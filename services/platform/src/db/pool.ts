import pg from 'pg';
import { int } from '../config';

// Client-side deadlines on every PostgreSQL session (docs/architecture.md "Deadlines"). The
// server's statement_timeout cannot end a wait on a link that swallows bytes (the query never
// reaches the server); only the client's own timers can.

/** pg's `query_timeout` for every query of a pool, unless a query sets its own (DB_QUERY_TIMEOUT_MS). */
export const DEFAULT_QUERY_TIMEOUT_MS = 4_000;
/** pg-pool's `connectionTimeoutMillis`: a new session, or a free one of a full pool (DB_CONNECT_TIMEOUT_MS). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;
/** Idle time before TCP keepalive probes start; Node then probes every second, ten times. */
export const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

/**
 * The database deadlines every service reads (services/platform/README.md "PostgreSQL: `db`"),
 * spread into its loadConfig shape beside DATABASE_URL.
 */
export function dbDeadlineSettings() {
  return {
    // Below the gRPC callers' 5 s deadline, so a hung query is answered UNAVAILABLE in time; above
    // any statement_timeout the database sets (the server's error then wins).
    dbQueryTimeoutMs: int('DB_QUERY_TIMEOUT_MS', {
      default: DEFAULT_QUERY_TIMEOUT_MS,
      min: 100,
      max: 600_000,
    }),
    dbConnectTimeoutMs: int('DB_CONNECT_TIMEOUT_MS', {
      default: DEFAULT_CONNECT_TIMEOUT_MS,
      min: 100,
      max: 600_000,
    }),
  };
}

/** What a gRPC service with a database reads besides dbDeadlineSettings() (db/health.ts). */
export function dbHealthSettings() {
  return {
    // How often grpc.health.v1 is checked against the database.
    dbHealthIntervalMs: int('DB_HEALTH_INTERVAL_MS', { default: 2_000, min: 100, max: 600_000 }),
  };
}

type Deadlines = {
  /** pg `query_timeout` (client side): a query unanswered this long fails "Query read timeout". */
  queryTimeoutMs?: number;
  /** Connecting, and waiting for a free session of a full pool. */
  connectTimeoutMs?: number;
};

/**
 * The pg.ClientConfig deadlines for a session outside a pool (e.g. a LISTEN connection): connect
 * and query timeouts and TCP keepalive, so a dead peer or a silent link ends in an error.
 */
export function pgSessionDeadlines(opts: Deadlines = {}): pg.ClientConfig {
  return {
    query_timeout: opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
  };
}

type PgPoolOptions = Deadlines & {
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

/** True for pg's own error when a query outlived its `query_timeout`. */
export function isQueryTimeout(err: unknown): boolean {
  return err instanceof Error && err.message === 'Query read timeout';
}

type AnyQuery = (this: pg.Client, ...args: unknown[]) => unknown;
const clientQuery = pg.Client.prototype.query as unknown as AnyQuery;

/**
 * A pg.Client that ends its session when one of its queries outlives `query_timeout`. pg only fails
 * the query: the session still waits for the lost answer, so every later query on it would queue
 * behind it. end() marks the client ending at once (pg-pool then drops it at release instead of
 * handing it out again) and destroys the socket, since a query is still active.
 */
class DeadlineClient extends pg.Client {}
Object.defineProperty(DeadlineClient.prototype, 'query', {
  configurable: true,
  writable: true,
  value: function query(this: pg.Client, ...args: unknown[]): unknown {
    const endOnTimeout = (err: unknown) => {
      if (isQueryTimeout(err)) this.end().catch(() => undefined);
    };
    const last = args.at(-1);
    if (typeof last === 'function') {
      // The callback form (pool.query): end before the caller's callback releases the client.
      const callback = last as (err: unknown, res: unknown) => void;
      args[args.length - 1] = (err: unknown, res: unknown) => {
        endOnTimeout(err);
        callback(err, res);
      };
      return clientQuery.apply(this, args);
    }
    const result = clientQuery.apply(this, args);
    // The promise form: this reaction is registered first, so it runs before the caller's catch.
    if (result instanceof Promise) result.then(undefined, endOnTimeout);
    return result;
  },
});

/**
 * A pg.Pool whose sessions resolve unqualified names in `schema`. int8 columns come back as strings.
 * Every query has a client-side deadline (`queryTimeoutMs`), connecting one (`connectTimeoutMs`),
 * sockets keep TCP keepalive on, and a session whose query timed out is ended, never reused.
 */
export function createPgPool(opts: PgPoolOptions): pg.Pool {
  const searchPath = quoteSchema(opts.schema);
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? opts.schema,
    ...pgSessionDeadlines(opts),
    idleTimeoutMillis: 30_000,
    Client: DeadlineClient as unknown as new () => pg.ClientBase,
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
    // A session whose query timed out is ended (DeadlineClient): a ROLLBACK could only wait out
    // another deadline, and the server rolls back when the session goes. Dropped from the pool.
    if (isQueryTimeout(err)) {
      client.release(err as Error);
      throw err;
    }
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
