import { withTransaction } from '@qr-payout/platform/db';
import { TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { newUuidV7 } from '@qr-payout/platform/ids';
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
 * (docs/architecture.md "The outbox and Kafka"). Call it on the client of the caller's open
 * database transaction, right after the terminal UPDATE: the event then exists exactly when the
 * transition is committed. The NOTIFY is delivered at commit (never on rollback); its payload is
 * the transaction's id. It wakes every replica's relay, and the executes any replica has waiting
 * on that transaction (docs/architecture.md "Waiting on another replica's settlement").
 */
export async function appendTransactionEvent(
  client: pg.PoolClient,
  txn: Transaction,
  opts: { occurredAt?: Date } = {},
): Promise<{ eventId: string }> {
  const event = transactionEventValues(txn, opts);
  // One round trip: the row, then the wake-up on this schema's channel (sent at commit; appends
  // of one transaction in one database transaction collapse into one notification).
  await client.query(
    `WITH appended AS (
       INSERT INTO outbox_events ${OUTBOX_EVENT_COLUMNS}
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id
     )
     SELECT pg_notify($7::text || current_schema(), $8::text) FROM appended`,
    [...event.values, OUTBOX_CHANNEL_PREFIX, txn.id],
  );
  return { eventId: event.eventId };
}

/** The columns transactionEventValues fills, in its order. */
export const OUTBOX_EVENT_COLUMNS = '(event_id, event_type, topic, message_key, payload, headers)';

/**
 * The outbox row of a transaction's TransactionEvent, as the six values of OUTBOX_EVENT_COLUMNS,
 * for a caller that writes it inside a statement of its own (with the NOTIFY on
 * `OUTBOX_CHANNEL_PREFIX || current_schema()`, the transaction's id as payload, as
 * appendTransactionEvent does).
 */
export function transactionEventValues(
  txn: Transaction,
  opts: { occurredAt?: Date } = {},
): { eventId: string; values: unknown[] } {
  const message = buildTransactionEvent(txn, {
    eventId: newUuidV7(),
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

/** An outbox row locked by a relay round: what to publish, and when it was written (for lag). */
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

type ClaimedRecord = {
  id: string;
  event_id: string;
  topic: string;
  message_key: string;
  payload: Buffer;
  headers: Record<string, string>;
  attempts: number;
  created_at: Date;
};

/** What became of a round's publish: acknowledged, or failed with the bus's error. */
export type PublishVerdict = { published: true } | { published: false; error: string };

export type RelayRoundOptions = {
  /** Events locked and published per round. */
  limit: number;
  /**
   * The longest the round's database transaction may sit idle (waiting for the bus): past it
   * PostgreSQL ends the session, the transaction rolls back and the rows are free again. A bound
   * for a relay that hangs where its own publish deadline cannot fire (a frozen process).
   */
  holdMs: number;
  /** Backoff of a failed publish: `baseMs` · 2^attempts, at most `maxMs`. */
  backoff: { baseMs: number; maxMs: number };
};

export interface OutboxStore {
  /**
   * One relay round in ONE database transaction (the standard transactional-outbox relay): locks
   * up to `limit` due, unpublished events, oldest first, with FOR UPDATE SKIP LOCKED (replicas skip
   * each other's rows), hands them to `publish`, then marks them published (acknowledged) or counts
   * the failure (`attempts`, `last_error`, the next attempt after the backoff), and commits. A crash
   * or a lost connection anywhere rolls back: the rows are unlocked and due again, which is why
   * delivery is at least once. Resolves with the number of events locked.
   */
  relayRound(
    opts: RelayRoundOptions,
    publish: (events: ClaimedEvent[]) => Promise<PublishVerdict>,
  ): Promise<number>;
  /**
   * The backlog: how many events are not yet published, and when the oldest of them was written
   * (null when none). One query over the partial index of unpublished events, so its cost follows
   * the backlog, not the table.
   */
  pendingStats(): Promise<OutboxPendingStats>;
}

/** The outbox's unpublished backlog (metrics: outbox lag). */
export type OutboxPendingStats = { count: number; oldestCreatedAt: Date | null };

function claimedEvent(row: ClaimedRecord): ClaimedEvent {
  return {
    id: BigInt(row.id),
    eventId: row.event_id,
    topic: row.topic,
    key: row.message_key,
    payload: new Uint8Array(row.payload.buffer, row.payload.byteOffset, row.payload.byteLength),
    headers: row.headers,
    attempts: row.attempts,
    createdAt: row.created_at,
  };
}

export function createOutboxStore(pool: pg.Pool): OutboxStore {
  return {
    async pendingStats() {
      // The predicate is the one of outbox_events_unpublished_idx: only the backlog is read.
      const { rows } = await pool.query<{ count: number; oldest_created_at: Date | null }>(
        `SELECT count(*)::int AS count, min(created_at) AS oldest_created_at
           FROM outbox_events
          WHERE published_at IS NULL`,
      );
      const row = rows[0]!;
      return { count: row.count, oldestCreatedAt: row.oldest_created_at };
    },
    relayRound(opts, publish) {
      // One transaction per round: the claimed rows stay locked while they are published, and a
      // hung publish cannot hold them past holdMs (the session ends, the round rolls back).
      return withTransaction(
        pool,
        async (client) => {
          const { rows } = await client.query<ClaimedRecord>(
            `SELECT id, event_id, topic, message_key, payload, headers, attempts, created_at
               FROM outbox_events
              WHERE published_at IS NULL AND next_attempt_at <= now()
              ORDER BY id
              LIMIT $1
                FOR UPDATE SKIP LOCKED`,
            [opts.limit],
          );
          if (rows.length > 0) {
            const ids = rows.map((row) => row.id);
            const verdict = await publish(rows.map(claimedEvent));
            if (verdict.published) {
              // The one write of a published event. last_error stays as the history of earlier tries.
              await client.query(
                'UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::bigint[])',
                [ids],
              );
            } else {
              // SET reads the old attempts: the first failure waits baseMs.
              await client.query(
                `UPDATE outbox_events
                    SET attempts = attempts + 1,
                        next_attempt_at = now()
                          + least($3::float8, $2::float8 * power(2, least(attempts, 30))) * interval '1 millisecond',
                        last_error = $4
                  WHERE id = ANY($1::bigint[])`,
                [ids, opts.backoff.baseMs, opts.backoff.maxMs, verdict.error.slice(0, 1000)],
              );
            }
          }
          return rows.length;
        },
        { idleTimeoutMs: opts.holdMs },
      );
    },
  };
}
