import { type RunningGrpcService, serveGrpc } from '@qr-payout/platform';
import { loadWebhookConfig } from './config';
import { createDeps, type WebhookOverrides } from './deps';
import { buildServer } from './server';

export { loadDatabaseConfig, loadWebhookConfig } from './config';
export { generateSealingKey } from './crypto/sealed-box';
export { MIGRATIONS_DIR, type WebhookOverrides } from './deps';

export type RunningWebhook = RunningGrpcService;

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
  return serveGrpc({
    server: buildServer(deps),
    deps,
    config,
  });
}
