import { randomUUID } from 'node:crypto';
import { TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform';
import type { Transaction } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type pg from 'pg';
import { buildTransactionEvent } from './event-message';

/**
 * The NOTIFY channel of the outbox in `schema`: one per schema, so relays of other schemas (tests
 * on random schemas, several environments in one database) are not woken for nothing.
 */
export function outboxChannel(schema: string): string {
  return `${OUTBOX_CHANNEL_PREFIX}${schema}`;
}

export const OUTBOX_CHANNEL_PREFIX = 'outbox_events:';

/**
 * Writes the TransactionEvent of a transaction that just reached a terminal state to the outbox
 * (design §5). Call it on the client of the caller's open database transaction, right after the
 * terminal UPDATE: the event then exists exactly when the transition is committed. The NOTIFY is
 * delivered at commit (never on rollback) and wakes the relay.
 */
export async function appendTransactionEvent(
  client: pg.PoolClient,
  txn: Transaction,
  opts: { occurredAt?: Date } = {},
): Promise<{ eventId: string }> {
  const event = transactionEventValues(txn, opts);
  // One round trip: the row, then the wake-up on this schema's channel (sent at commit; several
  // appends in one transaction collapse into one notification).
  await client.query(
    `WITH appended AS (
       INSERT INTO outbox_events ${OUTBOX_EVENT_COLUMNS}
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id
     )
     SELECT pg_notify($7::text || current_schema(), '') FROM appended`,
    [...event.values, OUTBOX_CHANNEL_PREFIX],
  );
  return { eventId: event.eventId };
}

/** The columns transactionEventValues fills, in its order. */
export const OUTBOX_EVENT_COLUMNS = '(event_id, event_type, topic, message_key, payload, headers)';

/**
 * The outbox row of a transaction's TransactionEvent, as the six values of OUTBOX_EVENT_COLUMNS,
 * for a caller that writes it inside a statement of its own (with the NOTIFY on
 * `outboxChannelPrefix || current_schema()`, as appendTransactionEvent does).
 */
export function transactionEventValues(
  txn: Transaction,
  opts: { occurredAt?: Date } = {},
): { eventId: string; values: unknown[] } {
  const message = buildTransactionEvent(txn, {
    eventId: randomUUID(),
    occurredAt: opts.occurredAt ?? new Date(),
  });
  return {
    eventId: message.eventId,
    values: [
      message.eventId,
      message.eventType,
      TRANSACTION_EVENTS_TOPIC,
      message.key,
      Buffer.from(message.payload.buffer, message.payload.byteOffset, message.payload.byteLength),
      JSON.stringify(message.headers),
    ],
  };
}

/** An outbox row claimed by a relay: what to publish, and when it was written (for lag). */
export type ClaimedEvent = {
  id: bigint;
  eventId: string;
  topic: string;
  key: string;
  payload: Uint8Array;
  headers: Record<string, string>;
  attempts: number;
  createdAt: Date;
};

type ClaimedRow = {
  id: string;
  event_id: string;
  topic: string;
  message_key: string;
  payload: Buffer;
  headers: Record<string, string>;
  attempts: number;
  created_at: Date;
};

export interface OutboxStore {
  /**
   * Leases up to `limit` due, unpublished events for `leaseMs`, oldest first. Rows locked or
   * leased by another relay are skipped, so replicas share the work; a lease that runs out (the
   * relay died) makes its rows due again, which is why delivery is at least once.
   */
  claimDue(limit: number, leaseMs: number): Promise<ClaimedEvent[]>;
  /** Marks events published (only after the bus acknowledged them) and drops their lease. */
  markPublished(ids: readonly bigint[]): Promise<void>;
  /**
   * Counts a failed publish and makes the events due again after an exponential backoff
   * (`baseMs` · 2^attempts, at most `maxMs`), recording the error.
   */
  markFailed(
    ids: readonly bigint[],
    error: string,
    backoff: { baseMs: number; maxMs: number },
  ): Promise<void>;
}

export function createOutboxStore(pool: pg.Pool): OutboxStore {
  return {
    async claimDue(limit, leaseMs) {
      // One statement (no transaction held open): the row locks last only while it runs, the
      // lease keeps other relays off the rows while this one publishes.
      const { rows } = await pool.query<ClaimedRow>(
        `UPDATE outbox_events
            SET lease_until = now() + $2 * interval '1 millisecond'
          WHERE id IN (
                SELECT id FROM outbox_events
                 WHERE published_at IS NULL
                   AND next_attempt_at <= now()
                   AND (lease_until IS NULL OR lease_until <= now())
                 ORDER BY id
                 LIMIT $1
                   FOR UPDATE SKIP LOCKED)
          RETURNING id, event_id, topic, message_key, payload, headers, attempts, created_at`,
        [limit, leaseMs],
      );
      // RETURNING has no order: restore the relay order.
      return rows
        .map((row) => ({
          id: BigInt(row.id),
          eventId: row.event_id,
          topic: row.topic,
          key: row.message_key,
          payload: new Uint8Array(row.payload.buffer, row.payload.byteOffset, row.payload.byteLength),
          headers: row.headers,
          attempts: row.attempts,
          createdAt: row.created_at,
        }))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async markPublished(ids) {
      await pool.query(
        `UPDATE outbox_events SET published_at = now(), lease_until = NULL, last_error = NULL
          WHERE id = ANY($1::bigint[]) AND published_at IS NULL`,
        [ids.map(String)],
      );
    },

    async markFailed(ids, error, backoff) {
      // SET reads the old attempts: the first failure waits baseMs.
      await pool.query(
        `UPDATE outbox_events
            SET attempts = attempts + 1,
                next_attempt_at = now()
                  + least($3::float8, $2::float8 * power(2, least(attempts, 30))) * interval '1 millisecond',
                lease_until = NULL,
                last_error = $4
          WHERE id = ANY($1::bigint[]) AND published_at IS NULL`,
        [ids.map(String), backoff.baseMs, backoff.maxMs, error.slice(0, 1000)],
      );
    },
  };
}
