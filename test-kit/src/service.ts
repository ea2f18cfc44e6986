// @qr-payout/test-kit/service: a service under test, started by its own exported start function
// over real gRPC (docs/testing.md "The three levels"): the env it is configured from, a schema of
// its own, and a call expected to fail.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConnectError } from '@connectrpc/connect';
import { testInfra } from './infra';
import { freshSchema, type TestSchema } from './schema';

export type TestEnv = Record<string, string>;

/** Listen on a free port of 127.0.0.1 and log nothing; `extra` adds or overrides variables. */
export function serviceEnv(extra: TestEnv = {}): TestEnv {
  return { GRPC_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...extra };
}

/** The test PostgreSQL, in `schema`, migrated on start, with a small pool. */
export function databaseEnv(schema: string, poolMax = 2): TestEnv {
  return {
    DATABASE_URL: testInfra.databaseUrl,
    DB_SCHEMA: schema,
    DB_POOL_MAX: String(poolMax),
    MIGRATE_ON_START: 'true',
  };
}

/** What the services' start functions return (platform's RunningGrpcService). */
export type StartedService = { readonly url: string; stop(): Promise<void> };

export type ServiceOnFreshSchema<S extends StartedService> = S & {
  readonly schema: TestSchema;
  /** Stops the service, then drops its schema. */
  stop(): Promise<void>;
};

/**
 * Starts a service with `start` (e.g. `(env) => startFx(loadFxConfig(env))`) on a fresh schema
 * `<schemaPrefix>_<hex>`: env is serviceEnv() + databaseEnv() + `extra`. A failed start drops the
 * schema it may have made.
 */
export async function startOnFreshSchema<S extends StartedService>(
  schemaPrefix: string,
  start: (env: TestEnv) => Promise<S>,
  extra: TestEnv = {},
): Promise<ServiceOnFreshSchema<S>> {
  const schema = freshSchema(schemaPrefix);
  let service: S;
  try {
    service = await start(serviceEnv({ ...databaseEnv(schema.name), ...extra }));
  } catch (err) {
    await schema.drop();
    throw err;
  }
  return {
    ...service,
    schema,
    async stop() {
      try {
        await service.stop();
      } finally {
        await schema.drop();
      }
    },
  };
}

const REPO_ROOT = path.resolve(__dirname, '../..');

/**
 * Runs `node <mainTs> migrate` as its own process, as the chart's migrate Job does, against the
 * test PostgreSQL in `schema`; `mainTs` is relative to the repository (services/fx/src/main.ts).
 * Its environment holds what the Job's does: the database and plain settings, no other secret
 * (charts/qr-payout/secret-keys.json), so a migrate that reads more fails here.
 */
export async function runMigrateCommand(mainTs: string, schema: string): Promise<void> {
  const preload = './services/platform/src/telemetry/preload.ts';
  await promisify(execFile)(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', '--require', preload, mainTs, 'migrate'],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...databaseEnv(schema),
        MIGRATE_ON_START: 'false',
        OTEL_SDK_DISABLED: 'true',
      },
    },
  );
}

/** The error a call ended with; fails the test when the call succeeds. */
export async function failure(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (err) {
    return ConnectError.from(err);
  }
  throw new Error('expected the call to fail');
}
