import { loadPayoutConfig } from './config';
import { createDeps, type PayoutDepsOverrides } from './deps';
import { type RunningOutboxRelay, runOutboxRelay } from './outbox/start';
import { type RunningPollingWorker, runPollingWorker } from './polling/worker';
import { buildServer } from './server';

export { loadPayoutConfig } from './config';
export type { PayoutDepsOverrides } from './deps';

export type RunningPayout = {
  readonly grpcPort: number;
  /**
   * NOT_SERVING, drain in-flight calls (GRPC_DRAIN_MS), stop the outbox relay (its batch in flight
   * finishes), then close the bus and the pool. Idempotent.
   */
  close(): Promise<void>;
};

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
  const server = buildServer(deps);
  let grpcPort: number;
  try {
    if (config.migrateOnStart) await deps.migrate();
    grpcPort = await server.listen(config.grpcPort, config.host);
  } catch (err) {
    await deps.close();
    throw err;
  }
  // After migrations: the relay reads outbox_events.
  const outbox: RunningOutboxRelay | undefined = config.outboxRelayEnabled
    ? runOutboxRelay({
        pool: deps.pool,
        bus: deps.bus,
        logger: deps.logger,
        connectionString: config.databaseUrl,
        schema: config.dbSchema,
        batchSize: config.outboxBatchSize,
        pollMs: config.outboxPollMs,
        leaseMs: config.outboxLeaseMs,
      })
    : undefined;
  const polling: RunningPollingWorker | undefined = config.pollWorkerEnabled
    ? runPollingWorker({
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
      })
    : undefined;
  let closing: Promise<void> | undefined;
  return {
    grpcPort,
    close() {
      // The relay outlives the drain and the polling worker: both may still write events.
      closing ??= server
        .close({ graceMs: config.grpcDrainMs })
        .finally(() => polling?.stop())
        .finally(() => outbox?.stop())
        .finally(() => deps.close());
      return closing;
    },
  };
}
