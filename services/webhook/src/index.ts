import { type RunningGrpcService, type ServiceWorker, serveGrpc } from '@qr-payout/platform/grpc';
import { loadWebhookConfig } from './config';
import { startDispatcher } from './deliveries/dispatcher';
import { closeSenderAgents } from './deliveries/sender';
import { startDeliveryWorker } from './deliveries/worker';
import { createDeps, type WebhookDeps, type WebhookOverrides } from './deps';
import { buildServer } from './server';

export { loadDatabaseConfig, loadWebhookConfig } from './config';
export { generateSealingKey } from './crypto/sealed-box';
export { MIGRATIONS_DIR, type WebhookOverrides } from './deps';

export type RunningWebhook = RunningGrpcService;

// The background roles of the service (README "Configuration"), each behind its flag: the dispatcher
// consumes the transaction-events topic, the worker sends deliveries. Stopped last-started first:
// the dispatcher stops consuming before the worker finishes its attempts in flight.
function startRoles(deps: WebhookDeps): ServiceWorker[] {
  const roles: ServiceWorker[] = [];
  if (deps.config.workerEnabled) {
    const worker = startDeliveryWorker({
      pool: deps.pool,
      sealedBox: deps.sealedBox,
      guard: deps.guard,
      logger: deps.logger,
      settings: deps.workerSettings,
    });
    deps.onWake(worker.wake);
    roles.push({
      async stop() {
        await worker.stop();
        closeSenderAgents();
      },
    });
  }
  if (deps.config.dispatcherEnabled && deps.bus) {
    const bus = deps.bus;
    // Subscribing connects to Kafka; the service serves meanwhile, and a failure is logged and
    // retried rather than crashing the API. A stop while still connecting does not wait for the
    // connection: closing the bus (deps.close) ends it, and a late subscription is stopped at once.
    let stopped = false;
    let dispatcher: { stop(): Promise<void> } | undefined;
    const subscribe = (delayMs: number): void => {
      startDispatcher({
        pool: deps.pool,
        bus,
        logger: deps.logger,
        endpoints: deps.endpointCache,
        groupId: deps.config.dispatcherGroup,
        sessionTimeoutMs: deps.config.kafkaSessionTimeoutMs,
        faultKillAfterDispatch: deps.config.faultKillAfterDispatch,
        onDeliveries: deps.wakeWorker,
      }).then(
        (started) => {
          dispatcher = started;
          if (stopped) void started.stop().catch(() => undefined);
        },
        (err: unknown) => {
          if (stopped) return;
          deps.logger.error({ err }, 'webhook dispatcher could not subscribe; retrying');
          setTimeout(() => {
            if (!stopped) subscribe(Math.min(delayMs * 2, 30_000));
          }, delayMs).unref();
        },
      );
    };
    subscribe(1_000);
    roles.push({
      async stop() {
        stopped = true;
        await dispatcher?.stop();
      },
    });
  }
  return roles;
}

/**
 * Loads config from `env`, migrates schema webhook when MIGRATE_ON_START=true, listens on
 * GRPC_PORT (0 picks a free port), then starts the dispatcher and the delivery worker.
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
    startWorkers: () => startRoles(deps),
  });
}
