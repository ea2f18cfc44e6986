// The trail of an event the campaign found missing at a webhook target (docs/testing.md "Fault
// campaign", "When a webhook is missing"): every place the event should have passed, from the
// transaction's terminal row to the receiver, so a violation says where the event stopped instead
// of only that it never arrived.
//
//   transaction row → outbox row (published?) → Kafka (partition, offset; read by an independent
//   consumer group) → the dispatcher group's committed offset → deliveries (status, attempts) →
//   attempts → what the receiver got → the log lines of every process that name it
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { ReceivedTransactionEvent } from '../support/transaction-events';
import type { ReceivedWebhook } from '../support/webhook-receiver';
import type { KafkaPosition } from './kafka-readback';

export interface TrailSources {
  db: pg.Pool;
  /** Every event an independent consumer group read from the events topic during the run. */
  kafkaEvents: readonly ReceivedTransactionEvent[];
  /** The dispatcher group's committed offset per partition at the end (undefined: unknown). */
  dispatcherOffsets?: Map<number, bigint>;
  /** What the partition holds now from an offset on: event id by offset (empty: unknown). */
  readKafkaAt?: (partition: number, offset: string) => Promise<Map<string, string>>;
  /**
   * The whole topic searched now for these transactions' events (undefined: not read to its end):
   * tells an event Kafka lost from one the consumers skipped.
   */
  findOnKafka?: (transactionIds: string[]) => Promise<Map<string, KafkaPosition[]> | undefined>;
  received: readonly ReceivedWebhook[];
  /** The processes' log directory: lines naming the transaction or its events are quoted. */
  logDir: string;
}

const LOG_LINES_PER_TRANSACTION = 12;

function iso(d: Date | null | undefined): string {
  return d ? d.toISOString() : '—';
}

/** The log lines of every process that mention one of `needles`, oldest file order, at most `max`. */
function logLinesNaming(logDir: string, needles: string[], max: number): string[] {
  const out: string[] = [];
  let files: string[] = [];
  try {
    files = readdirSync(logDir).filter((f) => f.endsWith('.log'));
  } catch {
    return [`(log directory ${logDir} unreadable)`];
  }
  for (const file of files.sort()) {
    let text: string;
    try {
      text = readFileSync(path.join(logDir, file), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (needles.some((n) => line.includes(n))) out.push(`${file}: ${line.slice(0, 400)}`);
    }
  }
  return out.length > max ? [...out.slice(0, max), `… ${out.length - max} more lines`] : out;
}

/**
 * One block of text per transaction: what each stage of the event path holds for it. Reads the
 * payout and webhook schemas of the run's database directly (the campaign's own view, not the API).
 */
export async function eventTrails(sources: TrailSources, transactionIds: string[]): Promise<string[]> {
  const { db } = sources;
  const trails: string[] = [];
  const unread = transactionIds.filter((id) => !sources.kafkaEvents.some((e) => e.key === id));
  const onTopic = unread.length > 0 ? await sources.findOnKafka?.(unread) : undefined;
  for (const id of transactionIds) {
    const lines: string[] = [`trail of ${id}:`];
    const txn = (
      await db.query<{ status: string; created_at: Date; updated_at: Date; callback_url: string | null }>(
        'SELECT status, created_at, updated_at, callback_url FROM payout.transactions WHERE id = $1',
        [id],
      )
    ).rows[0];
    lines.push(
      txn
        ? `  transaction: ${txn.status}, created ${iso(txn.created_at)}, updated ${iso(txn.updated_at)}, callback_url ${txn.callback_url ? 'yes' : 'no'}`
        : '  transaction: no row',
    );

    const outbox = (
      await db.query<{
        id: string;
        event_id: string;
        event_type: string;
        created_at: Date;
        published_at: Date | null;
        attempts: number;
        last_error: string | null;
      }>(
        `SELECT id, event_id, event_type, created_at, published_at, attempts, last_error
           FROM payout.outbox_events WHERE message_key = $1 ORDER BY id`,
        [id],
      )
    ).rows;
    if (outbox.length === 0) lines.push('  outbox: no row (the terminal write appended no event)');
    for (const row of outbox) {
      lines.push(
        `  outbox #${row.id}: ${row.event_type} ${row.event_id}, written ${iso(row.created_at)}, published ${iso(row.published_at)}, ${row.attempts} failed publishes${row.last_error ? ` (last: ${row.last_error.slice(0, 160)})` : ''}`,
      );
    }

    const onKafka = sources.kafkaEvents.filter((e) => e.key === id);
    if (onKafka.length === 0) {
      lines.push('  kafka: not read by the independent consumer');
      const positions = onTopic?.get(id);
      lines.push(
        onTopic === undefined
          ? '    the topic now: not searched to its end'
          : positions === undefined
            ? '    the topic now: holds no event of it (Kafka lost it, or it was never written)'
            : `    the topic now: ${positions.map((p) => `${p.eventType} ${p.eventId} at partition ${p.partition} offset ${p.offset}`).join('; ')} (the consumers skipped it)`,
      );
    }
    for (const e of onKafka) {
      const committed = sources.dispatcherOffsets?.get(e.partition);
      const consumed =
        committed === undefined
          ? 'dispatcher offset unknown'
          : committed > BigInt(e.offset)
            ? `dispatcher committed past it (${committed})`
            : `dispatcher NOT past it (committed ${committed})`;
      lines.push(
        `  kafka: ${e.headers['event-type'] ?? '?'} ${e.headers['event-id'] ?? '?'} at partition ${e.partition} offset ${e.offset}, read ${new Date(e.receivedAtMs).toISOString()}; ${consumed}`,
      );
      // The same offset read again now: another event there means the log lost this one and gave
      // its offset to a later write (a truncated partition).
      const now = (await sources.readKafkaAt?.(e.partition, e.offset))?.get(e.offset);
      const eventId = e.headers['event-id'];
      lines.push(
        now === undefined
          ? '    that offset now: unreadable (truncated below it, or unknown)'
          : now === eventId
            ? '    that offset now: the same event'
            : `    that offset now: ANOTHER event (${now}): the partition lost this one after it was read`,
      );
      const neighbours = sources.kafkaEvents.filter(
        (n) => n.partition === e.partition && Math.abs(Number(n.offset) - Number(e.offset)) <= 2 && n !== e,
      );
      for (const n of neighbours) {
        const nId = n.headers['event-id'];
        if (!nId) continue;
        const made = (
          await db.query<{ created_at: Date | null }>(
            'SELECT min(created_at) AS created_at FROM webhook.deliveries WHERE event_id = $1',
            [nId],
          )
        ).rows[0]?.created_at;
        lines.push(`    offset ${n.offset} (${nId}): deliveries made ${iso(made)}`);
      }
    }

    const deliveries = (
      await db.query<{
        id: string;
        event_id: string;
        url: string;
        status: string;
        attempts: number;
        created_at: Date;
        last_attempt_at: Date | null;
        last_error: string | null;
        last_response_status: number | null;
      }>(
        `SELECT id, event_id, url, status, attempts, created_at, last_attempt_at, last_error, last_response_status
           FROM webhook.deliveries WHERE transaction_id = $1 ORDER BY url`,
        [id],
      )
    ).rows;
    if (deliveries.length === 0) lines.push('  deliveries: none (the dispatcher created no delivery)');
    for (const d of deliveries) {
      lines.push(
        `  delivery ${d.id} → ${new URL(d.url).pathname}: ${d.status}, ${d.attempts} attempts, created ${iso(d.created_at)}, last attempt ${iso(d.last_attempt_at)}${d.last_response_status ? `, last status ${d.last_response_status}` : ''}${d.last_error ? `, last error ${d.last_error.slice(0, 160)}` : ''}`,
      );
      const attempts = (
        await db.query<{
          attempt_number: number;
          started_at: Date;
          response_status: number | null;
          error_class: string | null;
          error: string | null;
        }>(
          `SELECT attempt_number, started_at, response_status, error_class, error
             FROM webhook.delivery_attempts WHERE delivery_id = $1 ORDER BY id LIMIT 20`,
          [d.id],
        )
      ).rows;
      for (const a of attempts) {
        lines.push(
          `    attempt ${a.attempt_number} at ${iso(a.started_at)}: ${a.response_status ?? a.error_class ?? '?'}${a.error ? ` ${a.error.slice(0, 120)}` : ''}`,
        );
      }
    }

    const got = sources.received.filter((r) => String(r.envelope.data.transaction_id) === id);
    lines.push(
      got.length === 0
        ? '  receiver: nothing for this transaction'
        : `  receiver: ${got.map((r) => `${r.path} ${r.envelope.event_type} (${r.answeredStatus ?? '?'})`).join(', ')}`,
    );

    const needles = [id, ...outbox.map((o) => o.event_id), ...deliveries.map((d) => d.id)];
    const logged = logLinesNaming(sources.logDir, needles, LOG_LINES_PER_TRANSACTION);
    lines.push(logged.length === 0 ? '  logs: no line names it' : '  logs:');
    for (const line of logged) lines.push(`    ${line}`);
    trails.push(lines.join('\n'));
  }
  return trails;
}
