// Helpers of the outbox integration tests: real PostgreSQL schemas, a real Kafka consumer, and
// terminal transactions to write events for.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { migrate, withTransaction } from '@qr-payout/platform/db';
import { type BusMessage, createKafkaBus, TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { newId } from '@qr-payout/platform/ids';
import { silentLogger } from '@qr-payout/platform/log';
import {
  type Transaction,
  TransactionSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { testInfra } from '@qr-payout/test-kit/infra';
import { freshSchema } from '@qr-payout/test-kit/schema';
import type pg from 'pg';
import { MIGRATIONS_DIR } from '../../src/deps';
import { appendTransactionEvent } from '../../src/outbox/store';

/** The bus createKafkaBus makes (with ensureTopics and deleteTopics). */
export type KafkaBus = ReturnType<typeof createKafkaBus>;

/** A migrated random schema and a pool on it; `drop()` removes both. */
export async function migratedSchema(): Promise<{ schema: string; pool: pg.Pool; drop(): Promise<void> }> {
  const schema = freshSchema('payout_test');
  const pool = schema.pool(4);
  await migrate(pool, { schema: schema.name, dir: MIGRATIONS_DIR });
  return { schema: schema.name, pool, drop: () => schema.drop() };
}

/** A transaction as it stands right after a terminal transition (no row needed for the outbox). */
export function terminalTransaction(
  status: 'completed' | 'failed',
  tenantId = 'ten_outbox_test',
): Transaction {
  const now = timestampFromDate(new Date());
  return create(TransactionSchema, {
    id: newId('txn'),
    tenantId,
    instructionId: newId('ins'),
    status: status === 'completed' ? TransactionStatus.COMPLETED : TransactionStatus.FAILED,
    rail: 'pix',
    schemeId: 'BR.PIX',
    createdAt: now,
    updatedAt: now,
    amount: { currency: 'BRL', amountMinor: 12_345n },
    payAmount: { currency: 'BRL', amountMinor: 12_345n },
    ...(status === 'completed'
      ? { result: { reference: `E2E${randomBytes(8).toString('hex')}`, settledAt: now } }
      : { error: { code: 'AC04', reason: 'Closed account', partnerStatus: 'RJCT' } }),
  });
}

/** Appends one committed event per transaction (one database transaction each); returns event ids. */
export async function appendCommitted(pool: pg.Pool, txns: readonly Transaction[]): Promise<string[]> {
  const ids: string[] = [];
  for (const txn of txns) {
    const { eventId } = await withTransaction(pool, (client) => appendTransactionEvent(client, txn));
    ids.push(eventId);
  }
  return ids;
}

export function kafkaBus(clientId: string, brokers = testInfra.kafkaBrokers): KafkaBus {
  return createKafkaBus({ brokers, clientId, logger: silentLogger() });
}

/** A bus whose broker is down, failing each publish at once instead of after kafkajs' retries. */
export async function unreachableKafkaBus(clientId: string): Promise<KafkaBus> {
  return createKafkaBus({
    brokers: [await deadBrokerAddress()],
    clientId,
    logger: silentLogger(),
    kafka: { connectionTimeout: 500, retry: { retries: 0 } },
  });
}

/**
 * Every message of the transaction events topic, read by a new consumer group from the earliest
 * offset (the topic is shared with other suites: assertions filter by their own keys).
 */
export async function collectTransactionEvents(
  bus: KafkaBus,
): Promise<{ messages: BusMessage[]; stop(): Promise<void> }> {
  await bus.ensureTopics([TRANSACTION_EVENTS_TOPIC]);
  const messages: BusMessage[] = [];
  const subscription = await bus.subscribe({
    topic: TRANSACTION_EVENTS_TOPIC,
    groupId: `payout-outbox-test-${randomBytes(6).toString('hex')}`,
    // In batches (one offset commit each): the shared topic may hold many earlier runs' events,
    // and a commit per message would not read past them within a test's timeout.
    handleBatch: async (batch) => {
      messages.push(...batch);
    },
  });
  return { messages, stop: () => subscription.stop() };
}

export function withKeys(messages: readonly BusMessage[], keys: ReadonlySet<string>): BusMessage[] {
  return messages.filter((message) => keys.has(message.key));
}

/** Polls `check` until it returns true; fails with `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A 127.0.0.1 port nothing listens on: a Kafka broker that is down. */
export async function deadBrokerAddress(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `127.0.0.1:${port}`;
}

export type OutboxRowState = {
  event_id: string;
  published: boolean;
  attempts: number;
  last_error: string | null;
};

export async function outboxRows(pool: pg.Pool): Promise<OutboxRowState[]> {
  const { rows } = await pool.query<OutboxRowState>(
    `SELECT event_id, published_at IS NOT NULL AS published, attempts, last_error FROM outbox_events ORDER BY id`,
  );
  return rows;
}
