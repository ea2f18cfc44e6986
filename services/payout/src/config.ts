import { bool, type Env, int, loadConfig, str, url } from '@qr-payout/platform/config';
import { dbDeadlineSettings, dbHealthSettings, pruneJobSettings } from '@qr-payout/platform/db';
import { kafkaSettings } from '@qr-payout/platform/events';
import { DEFAULT_EXECUTE_WAIT_MS } from '@qr-payout/platform/execute-wait';
import { grpcClientSettings, grpcServiceSettings } from '@qr-payout/platform/grpc';
import { railLimits } from './limits/rail-limits';
import { partnerUrlPerRail } from './rails/per-rail-config';
import { settlementHorizons } from './stuck/horizons';

/** The payout service's typed, frozen config; fails fast naming every bad variable. */
export function loadPayoutConfig(env: Env) {
  return loadConfig(
    {
      ...grpcServiceSettings(50053),
      databaseUrl: url('DATABASE_URL'),
      dbPoolMax: int('DB_POOL_MAX', { default: 10, min: 1 }),
      // DB_QUERY_TIMEOUT_MS, DB_CONNECT_TIMEOUT_MS, DB_HEALTH_INTERVAL_MS (docs/architecture.md
      // "Deadlines").
      ...dbDeadlineSettings(),
      ...dbHealthSettings(),
      dbSchema: str('DB_SCHEMA', { default: 'payout' }),
      migrateOnStart: bool('MIGRATE_ON_START', { default: false }),
      // The outbox relay publishes here (docs/architecture.md "The outbox and Kafka"); the producer
      // connects on first publish. KAFKA_BROKERS, KAFKA_TLS*, KAFKA_SASL_*.
      ...kafkaSettings(),
      // `main.js migrate` also creates the events topic when missing and checks it
      // (outbox/topic.ts; the chart's kafka.topic.provision: job).
      eventsTopicProvision: bool('EVENTS_TOPIC_PROVISION', { default: false }),
      eventsTopicPartitions: int('EVENTS_TOPIC_PARTITIONS', { default: 6, min: 1 }),
      eventsTopicReplicationFactor: int('EVENTS_TOPIC_REPLICATION_FACTOR', { default: 3, min: 1 }),
      eventsTopicMinInsyncReplicas: int('EVENTS_TOPIC_MIN_INSYNC_REPLICAS', { default: 2, min: 1 }),
      // The outbox relay runs in every replica (SKIP LOCKED shares the work); off only for
      // processes that must not publish (tools, some tests).
      outboxRelayEnabled: bool('OUTBOX_RELAY_ENABLED', { default: true }),
      outboxBatchSize: int('OUTBOX_BATCH_SIZE', { default: 100, min: 1, max: 10_000 }),
      // NOTIFY wakes the relay at once; the poll only covers a lost listener connection.
      outboxPollMs: int('OUTBOX_POLL_MS', { default: 1_000, min: 10 }),
      // The longest a relay round waits for Kafka's acknowledgement while it holds its rows' locks;
      // past it the batch counts as failed and is retried after the backoff.
      outboxPublishTimeoutMs: int('OUTBOX_PUBLISH_TIMEOUT_MS', { default: 30_000, min: 100 }),
      // After a wake-up the relay waits this long so that events committing together share one
      // Kafka send and one UPDATE (README "Outbox relay").
      outboxLingerMs: int('OUTBOX_LINGER_MS', { default: 25, min: 0, max: 1_000 }),
      // execute's and pay's callback_url follows the rules of registered endpoints (platform
      // checkTargetUrl); true (sandbox, tests) also allows http and private hosts, as the webhook
      // service does under the same variable.
      allowPrivateCallbackTargets: bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', { default: false }),
      // fx quotes a pay's wallet currency and confirms the instruction's quote at execute
      // (consumer = the transaction id).
      fxUrl: url('FX_URL', { default: 'http://127.0.0.1:50052' }),
      // GRPC_LOAD_BALANCING, GRPC_DNS_MIN_RESOLUTION_INTERVAL_MS: how calls to fx spread over its
      // replicas (docs/architecture.md "Internal load balancing").
      ...grpcClientSettings(),
      // docs/api/idempotency.md "Execute and pay": execute waits this long for a terminal state
      // when the request says nothing.
      executeWaitMs: int('EXECUTE_WAIT_MS', { default: DEFAULT_EXECUTE_WAIT_MS, min: 0, max: 60_000 }),
      // The partner protocol (docs/partner-protocol.md); one base URL, or one per rail.
      partnerBaseUrl: url('PARTNER_BASE_URL', { default: 'http://127.0.0.1:4010' }),
      partnerUrlPerRail: partnerUrlPerRail(),
      partnerApiKey: str('PARTNER_API_KEY', { default: 'sim_key', secret: true }),
      partnerTimeoutMs: int('PARTNER_TIMEOUT_MS', { default: 5_000, min: 1 }),
      // Where partners call back: <base>/v1/partner/callbacks/<rail> (the gateway verifies them).
      partnerCallbackBaseUrl: url('PARTNER_CALLBACK_BASE_URL', { default: 'http://127.0.0.1:8080' }),
      // The polling worker (docs/architecture.md "Partner callbacks"): claims due
      // pending/processing transactions.
      pollWorkerEnabled: bool('POLL_WORKER_ENABLED', { default: true }),
      pollIntervalMs: int('POLL_INTERVAL_MS', { default: 1_000, min: 10 }),
      pollBatchSize: int('POLL_BATCH_SIZE', { default: 20, min: 1, max: 500 }),
      // A claimed row is the claimer's for this long; a crashed claimer's rows come back after it.
      pollLeaseMs: int('POLL_LEASE_MS', { default: 30_000, min: 100 }),
      // First poll after a submission, doubled per attempt up to the max.
      pollBackoffBaseMs: int('POLL_BACKOFF_BASE_MS', { default: 1_000, min: 10 }),
      pollBackoffMaxMs: int('POLL_BACKOFF_MAX_MS', { default: 60_000, min: 10 }),
      // Retention (docs/operators.md "Retention"): RETENTION_ENABLED, RETENTION_INTERVAL_MS,
      // RETENTION_BATCH_SIZE, RETENTION_PAUSE_MS, then what each pruned table keeps.
      ...pruneJobSettings(),
      // A published outbox event is kept this long (7 days), for replays by hand and support.
      outboxRetentionMs: int('OUTBOX_RETENTION_MS', { default: 604_800_000, min: 1 }),
      // Keys past their 24 hours are deleted this often (an expired key is reusable at once).
      idempotencyKeyReapMs: int('IDEMPOTENCY_KEY_REAP_MS', { default: 60_000, min: 10 }),
      // Per-rail minimum and maximum amounts (RAIL_LIMITS_PIX=0.01..1000000.00, ...): sandbox
      // defaults; an operator sets each rail's per partner contract.
      railLimits: railLimits(),
      // Per-rail settlement horizon (SETTLEMENT_HORIZON_PIX_MS=300000, ...; README "Transaction
      // state machine"): past it a live transaction is settled, failed or reported stuck.
      settlementHorizons: settlementHorizons(),
      // The payout.transactions.stuck gauge counts with one query at most this often.
      stuckGaugeRefreshMs: int('STUCK_GAUGE_REFRESH_MS', { default: 30_000, min: 100 }),
    },
    env,
  );
}

export type PayoutConfig = ReturnType<typeof loadPayoutConfig>;
