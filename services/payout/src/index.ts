import { type RunningGrpcService, serveGrpc } from '@qr-payout/platform/grpc';
import { loadPayoutConfig } from './config';
import { createDeps, type PayoutDepsOverrides } from './deps';
import { runOutboxRelay } from './outbox/start';
import { runPollingWorker } from './polling/worker';
import { buildServer } from './server';
import { registerStuckGauge } from './stuck/metric';

export { loadPayoutConfig } from './config';
export type { PayoutDepsOverrides } from './deps';

export type RunningPayout = RunningGrpcService;

/**
 * Loads config from `env`, migrates schema payout when MIGRATE_ON_START=true, and listens on
 * GRPC_PORT (0 picks a free port), then starts the outbox relay unless OUTBOX_RELAY_ENABLED=false
 * and the polling worker unless POLL_WORKER_ENABLED=false.
 * `overrides.bus` replaces the Kafka bus (the sandbox).
 */
export async function startPayout(
  env: NodeJS.ProcessEnv,
  overrides: PayoutDepsOverrides = {},
): Promise<RunningPayout> {
  const config = loadPayoutConfig(env);
  const deps = createDeps(config, overrides);
  return serveGrpc({
    server: buildServer(deps),
    deps,
    config,
    // After migrations (the relay reads outbox_events). Stopped in reverse order after the drain:
    // the polling worker first, then the relay, which outlives both because both write events.
    startWorkers: () => [
      // The payout.transactions.stuck gauge, read by whichever metrics exporter is configured.
      registerStuckGauge({
        store: deps.stuckStore,
        horizons: config.settlementHorizons,
        logger: deps.logger,
        refreshMs: config.stuckGaugeRefreshMs,
      }),
      ...(config.outboxRelayEnabled
        ? [
            runOutboxRelay({
              pool: deps.pool,
              bus: deps.bus,
              logger: deps.logger,
              connectionString: config.databaseUrl,
              schema: config.dbSchema,
              batchSize: config.outboxBatchSize,
              pollMs: config.outboxPollMs,
              publishTimeoutMs: config.outboxPublishTimeoutMs,
              lingerMs: config.outboxLingerMs,
            }),
          ]
        : []),
      ...(config.pollWorkerEnabled
        ? [
            runPollingWorker({
              store: deps.executionStore,
              submitter: deps.submitter,
              settlement: deps.settlement,
              partner: deps.partner,
              logger: deps.logger,
              intervalMs: config.pollIntervalMs,
              batchSize: config.pollBatchSize,
              leaseMs: config.pollLeaseMs,
              backoffMs: deps.backoffMs,
              keyReapIntervalMs: config.idempotencyKeyReapMs,
              horizons: config.settlementHorizons,
              backoffMaxMs: config.pollBackoffMaxMs,
            }),
          ]
        : []),
    ],
  });
}
