import { type RunningGrpcService, serveGrpc } from '@qr-payout/platform/grpc';
import { loadFxConfig } from './config';
import { createDeps } from './deps';
import { buildServer } from './server';

export { loadFxConfig } from './config';
export { DEFAULT_RATE_TABLE, type RateEntry, type RateTable } from './rates/rate-table';

export type RunningFx = RunningGrpcService;

/**
 * Loads config from `env`, migrates schema fx when MIGRATE_ON_START=true, and listens on
 * GRPC_PORT (0 picks a free port).
 */
export async function startFx(env: NodeJS.ProcessEnv): Promise<RunningFx> {
  const config = loadFxConfig(env);
  const deps = createDeps(config);
  return serveGrpc({
    server: buildServer(deps),
    deps,
    config,
  });
}
