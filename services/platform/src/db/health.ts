// A replica that lost its database says so in grpc.health.v1 (docs/architecture.md "Deadlines"):
// Kubernetes' readiness probe then takes it out of the headless Service's records and the
// round-robin clients stop picking it, while the replicas that still reach the database take its
// calls. A cheap `SELECT 1` on a session of its own, with the same client-side deadlines as the
// service's pool, every DB_HEALTH_INTERVAL_MS; the pool itself is left to the calls, so a busy
// pool never reads as a lost database.
import type pg from 'pg';
import type { GrpcServer } from '../grpc/server';
import type { Logger } from '../logger';
import { createPgPool } from './pool';

type DatabaseHealthOptions = {
  /** The service's config: DATABASE_URL, DB_SCHEMA, dbDeadlineSettings() and dbHealthSettings(). */
  config: {
    databaseUrl: string;
    dbSchema: string;
    dbQueryTimeoutMs: number;
    dbConnectTimeoutMs: number;
    dbHealthIntervalMs: number;
  };
  /** Names the check turns NOT_SERVING and back besides '' (the whole server): the services served. */
  services: readonly string[];
  logger: Logger;
  /** application_name of the check's session (default `<schema>-health`). */
  applicationName?: string;
};

type DatabaseWatch = {
  /** Stops at once (a check in flight no longer changes any status); resolves once its session is closed. */
  stop(): Promise<void>;
};

function watchDatabase(health: GrpcServer['health'], opts: DatabaseHealthOptions): DatabaseWatch {
  const { config } = opts;
  const pool: pg.Pool = createPgPool({
    connectionString: config.databaseUrl,
    schema: config.dbSchema,
    max: 1,
    applicationName: opts.applicationName ?? `${config.dbSchema}-health`,
    queryTimeoutMs: config.dbQueryTimeoutMs,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    onError: () => undefined,
  });
  const names = ['', ...opts.services];
  let stopped = false;
  let reachable = true;
  let timer: NodeJS.Timeout | undefined;

  const check = async () => {
    let error: unknown;
    try {
      await pool.query('SELECT 1');
    } catch (err) {
      error = err;
    }
    if (stopped) return;
    const now = error === undefined;
    if (now !== reachable) {
      reachable = now;
      for (const name of names) health.setStatus(name, now ? 'SERVING' : 'NOT_SERVING');
      if (now) opts.logger.info('database reachable again: SERVING');
      else
        opts.logger.warn(
          { err: { message: (error as Error)?.message } },
          'database unreachable: NOT_SERVING until it answers again',
        );
    }
    timer = setTimeout(check, config.dbHealthIntervalMs);
  };
  void check();

  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      return pool.end();
    },
  };
}

/**
 * `server` whose grpc.health.v1 statuses ('' and `services`) follow its database: NOT_SERVING
 * while `SELECT 1` fails or outlives its deadline, SERVING again once it answers. The check starts
 * once the server listens and stops before it closes, so a late answer never undoes close()'s
 * NOT_SERVING. The liveness name (LIVENESS_HEALTH_SERVICE, set by the server) never follows it.
 */
export function withDatabaseHealth(server: GrpcServer, opts: DatabaseHealthOptions): GrpcServer {
  let watch: DatabaseWatch | undefined;
  return {
    get health() {
      return server.health;
    },
    inFlight: () => server.inFlight(),
    healthCallsInFlight: () => server.healthCallsInFlight(),
    async listen(port, host) {
      const bound = await server.listen(port, host);
      watch ??= watchDatabase(server.health, opts);
      return bound;
    },
    listenHealth: (port, host) => server.listenHealth(port, host),
    async close(closeOpts) {
      const stopping = watch?.stop().catch(() => undefined);
      await server.close(closeOpts);
      await stopping;
    },
  };
}
