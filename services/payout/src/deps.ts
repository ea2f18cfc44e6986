import path from 'node:path';
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { createKafkaBus, type EventBus } from '@qr-payout/platform/events';
import { createGrpcClient } from '@qr-payout/platform/grpc';
import { closeHttpAgents } from '@qr-payout/platform/http';
import { createLogger, type Logger } from '@qr-payout/platform/log';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type pg from 'pg';
import type { PayoutConfig } from './config';
import { createExecutionService, type ExecutionService } from './execution/service';
import { createSettlement, type Settlement } from './execution/settlement';
import { createSettlementSignals } from './execution/settlement-signals';
import { createExecutionStore, type ExecutionStore } from './execution/store';
import { createSubmitter, type Submitter } from './execution/submission';
import { createInstructionResolver } from './instructions/resolve';
import { createInstructionService, type InstructionService } from './instructions/service';
import { createInstructionStore } from './instructions/store';
import { exponentialBackoff } from './polling/worker';
import { createPartnerClient, type PartnerClient } from './rails/partner-client';
import type { RailName } from './rails/partner-protocol';
import { createStuckService, type StuckService } from './stuck/service';
import { createStuckStore, type StuckStore } from './stuck/store';
import { createTransactionService, type TransactionService } from './transactions/service';
import { createTransactionStore } from './transactions/store';

/** The SQL migrations of schema payout (applied by `main.ts migrate` or MIGRATE_ON_START). */
export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export type PayoutDeps = {
  readonly config: PayoutConfig;
  readonly logger: Logger;
  readonly pool: pg.Pool;
  /** Where the outbox relay publishes transaction events (Kafka, or the sandbox's memory bus). */
  readonly bus: EventBus;
  readonly instructions: InstructionService;
  readonly transactions: TransactionService;
  /** ExecuteInstruction, Pay and ApplyPartnerCallback (docs/architecture.md "Transactions"). */
  readonly execution: ExecutionService;
  /** The money path's SQL, its submitter and settlement, shared with the polling worker. */
  readonly executionStore: ExecutionStore;
  readonly submitter: Submitter;
  readonly settlement: Settlement;
  readonly partner: PartnerClient;
  /** Transactions past their settlement horizon: ListStuckTransactions and the stuck gauge. */
  readonly stuck: StuckService;
  readonly stuckStore: StuckStore;
  /** Delay before the next look at a transaction after n attempts (POLL_BACKOFF_*). */
  backoffMs(attempt: number): number;
  /** Applies the pending migrations of the configured schema. */
  migrate(): Promise<void>;
  /** Closes the bus (when created here), then ends the pool. Idempotent. */
  close(): Promise<void>;
};

export type PayoutDepsOverrides = {
  /** A bus owned by the caller (the sandbox's memory bus); the deps never close it. */
  bus?: EventBus;
};

export function createDeps(config: PayoutConfig, overrides: PayoutDepsOverrides = {}): PayoutDeps {
  const logger = createLogger({ service: 'payout', level: config.logLevel });
  const pool = createPgPool({
    connectionString: config.databaseUrl,
    schema: config.dbSchema,
    max: config.dbPoolMax,
    applicationName: 'payout',
    onError: (err) => logger.error({ err }, 'idle PostgreSQL client error'),
  });
  const ownBus = overrides.bus === undefined;
  const bus =
    overrides.bus ?? createKafkaBus({ brokers: [...config.kafkaBrokers], clientId: 'payout', logger });
  const partnerUrls: Readonly<Record<RailName, string | undefined>> = {
    pix: config.partnerPixUrl,
    'transferencias-3.0': config.partnerTransferencias30Url,
    'bre-b': config.partnerBreBUrl,
    'cce-inmediatas': config.partnerCceInmediatasUrl,
    'bolivia-qr-interoperable': config.partnerBoliviaQrInteroperableUrl,
  };
  const partner = createPartnerClient({
    baseUrlFor: (rail) => partnerUrls[rail] ?? config.partnerBaseUrl,
    apiKey: config.partnerApiKey,
    timeoutMs: config.partnerTimeoutMs,
  });
  const fx = createGrpcClient(FxService, { baseUrl: config.fxUrl, timeoutMs: 2_000 });
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
  const stuckStore = createStuckStore(pool);
  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    pool,
    bus,
    instructions: createInstructionService({ store: instructionStore, resolver }),
    transactions: createTransactionService({ store: createTransactionStore(pool) }),
    execution: createExecutionService({
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
    }),
    executionStore,
    submitter,
    settlement,
    partner,
    stuck: createStuckService({ store: stuckStore, horizons: config.settlementHorizons }),
    stuckStore,
    backoffMs,
    migrate: async () => {
      await migrate(pool, { schema: config.dbSchema, dir: MIGRATIONS_DIR, logger });
    },
    close() {
      closing ??= (async () => {
        try {
          if (ownBus) await bus.close();
        } finally {
          await pool.end();
          // The partner client's keep-alive sockets (process-wide; made again on the next request).
          closeHttpAgents();
        }
      })();
      return closing;
    },
  };
}
