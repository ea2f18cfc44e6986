import { loadWebhookConfig } from './config';
import { createDeps, type WebhookOverrides } from './deps';
import { buildServer } from './server';

export { loadDatabaseConfig, loadWebhookConfig } from './config';
export { generateSealingKey } from './crypto/sealed-box';
export { MIGRATIONS_DIR, type WebhookOverrides } from './deps';

export type RunningWebhook = {
  readonly grpcPort: number;
  /** NOT_SERVING, drain in-flight calls (GRPC_DRAIN_MS), then end the pool. Idempotent. */
  close(): Promise<void>;
};

/**
 * Loads config from `env`, migrates schema webhook when MIGRATE_ON_START=true, and listens on
 * GRPC_PORT (0 picks a free port).
 */
export async function startWebhook(
  env: NodeJS.ProcessEnv,
  overrides: WebhookOverrides = {},
): Promise<RunningWebhook> {
  const config = loadWebhookConfig(env);
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
