import path from 'node:path';
import type { Client } from '@connectrpc/connect';
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { createKafkaBus, type EventBus } from '@qr-payout/platform/events';
import { createGrpcClient } from '@qr-payout/platform/grpc';
import { closeHttpAgents } from '@qr-payout/platform/http';
import { createLogger, type Logger } from '@qr-payout/platform/log';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type pg from 'pg';
import type { PayoutConfig } from './config';
import { createPartnerClient, type PartnerClient } from './rails/partner-client';

/** The SQL migrations of schema payout (applied by `main.ts migrate` or MIGRATE_ON_START). */
export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

/** The payout service's infrastructure: pool, event bus, the partner's HTTP client, fx's gRPC client. */
export type PayoutDeps = {
  readonly logger: Logger;
  readonly pool: pg.Pool;
  /** Where the outbox relay publishes transaction events (Kafka, or the sandbox's memory bus). */
  readonly bus: EventBus;
  /** The rails' partner (docs/partner-protocol.md), one base URL per rail. */
  readonly partner: PartnerClient;
  /** fx quotes a pay's wallet currency and confirms an instruction's quote at execute. */
  readonly fx: Client<typeof FxService>;
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
    queryTimeoutMs: config.dbQueryTimeoutMs,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    applicationName: 'payout',
    onError: (err) => logger.error({ err }, 'idle PostgreSQL client error'),
  });
  const ownBus = overrides.bus === undefined;
  const bus =
    overrides.bus ??
    createKafkaBus({
      brokers: [...config.kafkaBrokers],
      connection: config.kafkaConnection,
      clientId: 'payout',
      logger,
    });
  let closing: Promise<void> | undefined;
  return {
    logger,
    pool,
    bus,
    partner: createPartnerClient({
      baseUrlFor: (rail) => config.partnerUrlPerRail[rail] ?? config.partnerBaseUrl,
      apiKey: config.partnerApiKey,
      timeoutMs: config.partnerTimeoutMs,
    }),
    fx: createGrpcClient(FxService, {
      baseUrl: config.fxUrl,
      timeoutMs: 2_000,
      loadBalancing: config.grpcLoadBalancing,
      dnsMinResolutionIntervalMs: config.grpcDnsMinResolutionIntervalMs,
      tls: config.grpcTls,
    }),
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
