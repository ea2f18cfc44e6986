// What runs in a payout process: PayoutService (instructions, execute and pay, transactions, partner
// callbacks, limits, stuck transactions) over gRPC with grpc.health.v1.Health, and three workers:
// the stuck gauge, the outbox relay (Kafka) and the polling worker (the partner's answers).
import { runPruneJobs, withDatabaseHealth } from '@qr-payout/platform/db';
import {
  createGrpcServer,
  type RunningGrpcService,
  type ServiceWorker,
  serveGrpc,
} from '@qr-payout/platform/grpc';
import { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { PayoutConfig } from './config';
import { createDeps, type PayoutDeps, type PayoutDepsOverrides } from './deps';
import { IDEMPOTENCY_KEY_TTL_MS } from './execution/context';
import { createExecutionService } from './execution/service';
import { createSettlement } from './execution/settlement';
import { createSettlementSignals, type SettlementSignals } from './execution/settlement-signals';
import { createExecutionStore } from './execution/store';
import { createSubmitter } from './execution/submission';
import { createInstructionResolver } from './instructions/resolve';
import { createInstructionService } from './instructions/service';
import { createInstructionStore } from './instructions/store';
import { railLimitsMessages } from './limits/rail-limits';
import { registerOutboxGauges } from './metrics';
import { listenToOutbox, type OutboxListenerOptions } from './outbox/listener';
import { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox/relay';
import { createOutboxStore, type OutboxStore } from './outbox/store';
import { payerIdentityRulesMessage } from './payers/identity-rules';
import { exponentialBackoff, runPollingWorker } from './polling/worker';
import { payoutPrunedTables } from './retention/tables';
import { registerStuckGauge } from './stuck/metric';
import { createStuckService } from './stuck/service';
import { createStuckStore } from './stuck/store';
import { createTransactionService } from './transactions/service';
import { createTransactionStore } from './transactions/store';

/**
 * Migrates schema payout when MIGRATE_ON_START=true, serves on GRPC_PORT (0 picks a free port),
 * then starts the workers (the relay unless OUTBOX_RELAY_ENABLED=false, the polling worker unless
 * POLL_WORKER_ENABLED=false). `overrides.bus` replaces the Kafka bus (the sandbox).
 */
export async function startPayout(
  config: PayoutConfig,
  overrides: PayoutDepsOverrides = {},
): Promise<RunningGrpcService> {
  const deps = createDeps(config, overrides);
  const { logger, pool, partner, fx } = deps;

  // The money path (docs/architecture.md "Transactions"): one store, the submitter and the
  // settlement, shared by ExecuteInstruction/Pay and the polling worker.
  const backoffMs = exponentialBackoff(config.pollBackoffBaseMs, config.pollBackoffMaxMs);
  const executionStore = createExecutionStore(pool);
  const signals = createSettlementSignals();
  const settlement = createSettlement({ store: executionStore, signals, logger });
  const submitter = createSubmitter({
    store: executionStore,
    settlement,
    partner,
    fx,
    logger,
    callbackBaseUrl: config.partnerCallbackBaseUrl,
    backoffMs,
  });
  // One owner of what a QR resolves to, for CreateInstruction and Pay alike.
  const resolver = createInstructionResolver({ railLimits: config.railLimits, fx });
  const instructionStore = createInstructionStore(pool);
  const instructions = createInstructionService({ store: instructionStore, resolver });
  const transactions = createTransactionService({ store: createTransactionStore(pool) });
  const execution = createExecutionService({
    store: executionStore,
    submitter,
    settlement,
    signals,
    logger,
    defaultWaitMs: config.executeWaitMs,
    leaseMs: config.pollLeaseMs,
    firstPollMs: backoffMs(0),
    callbackBaseUrl: config.partnerCallbackBaseUrl,
    resolver,
    instructions: instructionStore,
    allowPrivateCallbackTargets: config.allowPrivateCallbackTargets,
  });
  const stuckStore = createStuckStore(pool);
  const outboxStore = createOutboxStore(pool);
  const stuck = createStuckService({ store: stuckStore, horizons: config.settlementHorizons });

  const server = createGrpcServer({
    serviceName: 'payout',
    logger,
    maxConnectionAgeMs: config.grpcMaxConnectionAgeMs,
    maxConnectionAgeGraceMs: config.grpcMaxConnectionAgeGraceMs,
    tls: config.grpcTls,
    register(router) {
      router.service(PayoutService, {
        createInstruction: async (req) => ({ instruction: await instructions.createInstruction(req) }),
        getInstruction: async (req) => ({
          instruction: await instructions.getInstruction(req.tenantId, req.instructionId),
        }),
        getTransaction: async (req) => ({
          transaction: await transactions.getTransaction(req.tenantId, req.transactionId),
        }),
        listTransactions: async (req) => {
          const page = await transactions.listTransactions(req);
          return { transactions: page.transactions, pageInfo: { nextCursor: page.nextCursor } };
        },
        // The call's signal only ends the wait: a payout already on its way is never abandoned
        // because the caller went away.
        executeInstruction: (req, ctx) => execution.executeInstruction(req, ctx.signal),
        pay: (req, ctx) => execution.pay(req, ctx.signal),
        applyPartnerCallback: async (req) => ({ transaction: await execution.applyPartnerCallback(req) }),
        listRailLimits: () => ({ limits: railLimitsMessages(config.railLimits) }),
        listPayerIdentityRules: () => payerIdentityRulesMessage(),
        // The gateway adopts these at start, so payout is their one owner.
        getExecutionSettings: () => ({
          executeWaitMs: config.executeWaitMs,
          idempotencyKeyTtlMs: IDEMPOTENCY_KEY_TTL_MS,
        }),
        listStuckTransactions: async (req) => ({ transactions: await stuck.listStuckTransactions(req) }),
      });
    },
  });

  return serveGrpc({
    // NOT_SERVING while the database does not answer (docs/architecture.md "Deadlines").
    server: withDatabaseHealth(server, { config, services: [PayoutService.typeName], logger }),
    deps,
    config,
    // After migrations (the relay reads outbox_events). Stopped in reverse order after the drain:
    // the polling worker first, then the relay, which outlives both because both write events.
    startWorkers: () => [
      // The payout.transactions.stuck gauge, read by whichever metrics exporter is configured.
      registerStuckGauge({
        store: stuckStore,
        horizons: config.settlementHorizons,
        logger,
        refreshMs: config.stuckGaugeRefreshMs,
      }),
      // payout_outbox_pending_events and payout_outbox_lag_seconds (docs/runbooks.md "Outbox lag").
      registerOutboxGauges({ store: outboxStore, logger }),
      // Published outbox events and expired idempotency keys (docs/operators.md "Retention").
      ...(config.retentionEnabled ? runPruneJobs(pool, logger, config, payoutPrunedTables(config)) : []),
      // The outbox channel's NOTIFY names each transaction that just settled in any replica: it
      // wakes the relay and this replica's executes waiting on that transaction
      // (docs/architecture.md "Waiting on another replica's settlement").
      runOutboxWorker(config, deps, outboxStore, signals),
      ...(config.pollWorkerEnabled
        ? [
            runPollingWorker({
              store: executionStore,
              submitter,
              settlement,
              partner,
              logger,
              intervalMs: config.pollIntervalMs,
              batchSize: config.pollBatchSize,
              leaseMs: config.pollLeaseMs,
              backoffMs,
              horizons: config.settlementHorizons,
              backoffMaxMs: config.pollBackoffMaxMs,
            }),
          ]
        : []),
    ],
  });
}

/**
 * The relay (unless OUTBOX_RELAY_ENABLED=false) woken by the outbox channel, or the channel's
 * listener alone: either way the settled transactions it names wake this replica's waits.
 */
function runOutboxWorker(
  config: PayoutConfig,
  deps: PayoutDeps,
  store: OutboxStore,
  signals: SettlementSignals,
): ServiceWorker {
  const listener = { connectionString: config.databaseUrl, schema: config.dbSchema, logger: deps.logger };
  if (!config.outboxRelayEnabled) {
    return listenToOutbox({
      ...listener,
      onWake: (transactionId) => transactionId && signals.wake(transactionId),
    });
  }
  return runOutboxRelay({
    ...listener,
    store,
    bus: deps.bus,
    batchSize: config.outboxBatchSize,
    pollMs: config.outboxPollMs,
    publishTimeoutMs: config.outboxPublishTimeoutMs,
    lingerMs: config.outboxLingerMs,
    onSettled: (transactionId) => signals.wake(transactionId),
  });
}

export type RunOutboxRelayOptions = OutboxRelayOptions &
  Omit<OutboxListenerOptions, 'onWake'> & {
    /** Also told each settled transaction's id the channel carries (see listenToOutbox). */
    onSettled?: (transactionId: string) => void;
  };

export type RunningOutboxRelay = {
  readonly relay: OutboxRelay;
  /** Stops listening, then waits for the batch in flight to be published and marked. */
  stop(): Promise<void>;
};

/** Starts the relay loop woken by NOTIFY on the schema's outbox channel, polling as a safety net. */
export function runOutboxRelay(opts: RunOutboxRelayOptions): RunningOutboxRelay {
  const { connectionString, schema, onSettled, ...relayOptions } = opts;
  const relay = createOutboxRelay(relayOptions);
  const listener = listenToOutbox({
    connectionString,
    schema,
    logger: opts.logger,
    onWake: (transactionId) => {
      relay.wake();
      if (transactionId) onSettled?.(transactionId);
    },
  });
  relay.start();
  let stopping: Promise<void> | undefined;
  return {
    relay,
    stop() {
      stopping ??= listener.stop().then(() => relay.stop());
      return stopping;
    },
  };
}
