import { loadFxConfig } from './config';
import { createDeps } from './deps';
import { buildServer } from './server';

export { loadFxConfig } from './config';
export { DEFAULT_RATE_TABLE, type RateEntry, type RateTable } from './rates/rate-table';

export type RunningFx = {
  readonly grpcPort: number;
  /** NOT_SERVING, drain in-flight calls (GRPC_DRAIN_MS), then end the pool. Idempotent. */
  close(): Promise<void>;
};

/**
 * Loads config from `env`, migrates schema fx when MIGRATE_ON_START=true, and listens on
 * GRPC_PORT (0 picks a free port).
 */
export async function startFx(env: NodeJS.ProcessEnv): Promise<RunningFx> {
  const config = loadFxConfig(env);
  const deps = createDeps(config);
  let grpcPort: number;
  const server = buildServer(deps);
  try {
    if (config.migrateOnStart) await deps.migrate();
    grpcPort = await server.listen(config.grpcPort, config.host);
  } catch (err) {
    await deps.close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    grpcPort,
    close() {
      closing ??= server.close({ graceMs: config.grpcDrainMs }).finally(() => deps.close());
      return closing;
    },
  };
}
