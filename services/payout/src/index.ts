import { loadPayoutConfig } from './config';
import { createDeps, type PayoutDepsOverrides } from './deps';
import { buildServer } from './server';

export { loadPayoutConfig } from './config';
export type { PayoutDepsOverrides } from './deps';

export type RunningPayout = {
  readonly grpcPort: number;
  /** NOT_SERVING, drain in-flight calls (GRPC_DRAIN_MS), then close the bus and the pool. Idempotent. */
  close(): Promise<void>;
};

/**
 * Loads config from `env`, migrates schema payout when MIGRATE_ON_START=true, and listens on
 * GRPC_PORT (0 picks a free port). `overrides.bus` replaces the Kafka bus (the sandbox).
 */
export async function startPayout(
  env: NodeJS.ProcessEnv,
  overrides: PayoutDepsOverrides = {},
): Promise<RunningPayout> {
  const config = loadPayoutConfig(env);
  const deps = createDeps(config, overrides);
  const server = buildServer(deps);
  let grpcPort: number;
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
