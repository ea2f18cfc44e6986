// The scale bench's seed (bench/README.md "scale"): N settled transactions as the system would have
// left them, written by set-based SQL (INSERT … SELECT over generate_series, one chunk per
// statement) straight into the run's database, with every index and constraint of the services'
// own migrations in place: per transaction its instruction, the transaction (completed), its
// idempotency key, its published outbox event, and its callback delivery (delivered) with one
// attempt.
import type pg from 'pg';

/** Rows per statement: large enough for set-based speed, small enough to show progress. */
const CHUNK = 100_000;

// Ids match the services' CHECKs (`^ins_[0-9A-HJKMNP-TV-Z]{26}$`): 'ZZ' and 24 upper-case hex
// digits, which no real (time-ordered) id starts with.
const ID = (prefix: string) => `'${prefix}_ZZ' || upper(lpad(to_hex(g), 24, '0'))`;
// Spread over 1,000 tenants; the bench's own tenant starts empty.
const TENANT = `'ten_scale_' || (g % 1000)`;
// A system that paid N transactions over the last 6 days (10 M: about 19 a second), so every row is
// one the retention jobs would still keep: outbox events (OUTBOX_RETENTION_MS, 7 days) and
// deliveries (WEBHOOK_DELIVERY_RETENTION_MS, 30 days) all, idempotency keys only those of the last
// 24 hours (their TTL: older ones were reaped). Finished 2 s after being made. now() is the chunk's
// transaction time, the same in all of its statements.
const AGE_SECONDS = 'g % 518400';
const FINISHED = `now() - (${AGE_SECONDS}) * interval '1 second'`;
const CREATED = `${FINISHED} - interval '2 seconds'`;
// One event per transaction, the same id in the outbox and in webhook's delivery: a UUID v7 of its
// time, as payout makes them (platform's newUuidV7), with md5 bits for the random part.
const EVENT_ID = `(lpad(to_hex((extract(epoch FROM ${FINISHED}) * 1000)::bigint), 12, '0') || '7'
  || substr(md5('scale-event-' || g), 1, 3) || '8' || substr(md5('scale-event-' || g), 4, 15))::uuid`;

/** The statements of one chunk, $1..$2 the range of g. */
const CHUNK_STATEMENTS = [
  `INSERT INTO payout.instructions (id, tenant_id, scheme_id, country, rail, decoded,
     amount_currency, amount_minor, pay_currency, pay_amount_minor, created_at)
   SELECT ${ID('ins')}, ${TENANT}, 'BR.PIX', 'BR', 'pix', '{"schemeId":"BR.PIX"}', 'BRL', 1000, 'BRL', 1000,
          ${CREATED}
     FROM generate_series($1::bigint, $2::bigint) AS g`,
  `INSERT INTO payout.transactions (id, tenant_id, instruction_id, scheme_id, rail, status,
     amount_currency, amount_minor, pay_currency, pay_amount_minor, payer_name, payer_account,
     payer_tax_id, callback_url, partner_payout_id, result_reference, result_settled_at,
     created_at, updated_at)
   SELECT ${ID('txn')}, ${TENANT}, ${ID('ins')}, 'BR.PIX', 'pix', 'completed', 'BRL', 1000, 'BRL', 1000,
          'Ana Souza', '0001-12345-6', '12345678909', 'https://hooks.example.test/payouts',
          'po_' || g, 'E2E' || g, ${CREATED}, ${CREATED}, ${CREATED}
     FROM generate_series($1::bigint, $2::bigint) AS g`,
  // The keys of the last 24 hours: live until their TTL ends.
  `INSERT INTO payout.idempotency_keys (tenant_id, key, request_fingerprint, transaction_id, created_at, expires_at)
   SELECT ${TENANT}, 'scale-' || g, md5('fp' || g), ${ID('txn')}, ${CREATED}, ${CREATED} + interval '1 day'
     FROM generate_series($1::bigint, $2::bigint) AS g
    WHERE ${AGE_SECONDS} < 86400 - 2`,
  `INSERT INTO payout.outbox_events (event_id, event_type, topic, message_key, payload, headers,
     created_at, published_at, attempts, next_attempt_at)
   SELECT ${EVENT_ID}, 'transaction.completed', 'payout.transaction-events.v1', ${ID('txn')},
          decode(repeat('ab', 220), 'hex'), '{}'::jsonb, ${FINISHED}, ${FINISHED}, 1, ${FINISHED}
     FROM generate_series($1::bigint, $2::bigint) AS g`,
  `INSERT INTO webhook.deliveries (id, tenant_id, event_id, event_type, transaction_id, url, status,
     attempts, payload, created_at, updated_at, last_attempt_at)
   SELECT ${ID('whd')}, ${TENANT}, ${EVENT_ID}, 'transaction.completed', ${ID('txn')},
          'https://hooks.example.test/payouts', 'delivered', 1, decode(repeat('7b', 600), 'hex'),
          ${FINISHED}, ${FINISHED}, ${FINISHED}
     FROM generate_series($1::bigint, $2::bigint) AS g`,
  `INSERT INTO webhook.delivery_attempts (delivery_id, attempt_number, trigger, started_at, duration_ms,
     response_status, succeeded)
   SELECT ${ID('whd')}, 1, 'scheduled', ${FINISHED}, 40, 204, true
     FROM generate_series($1::bigint, $2::bigint) AS g`,
];

/** The tables the seed writes, for the size table. */
export const SEEDED_TABLES = [
  'payout.instructions',
  'payout.transactions',
  'payout.idempotency_keys',
  'payout.outbox_events',
  'webhook.deliveries',
  'webhook.delivery_attempts',
];

export type SeedResult = { rows: number; seconds: number; transactionsPerSec: number };

/** Seeds `rows` transactions with their rows, chunk by chunk (one commit each), then VACUUM ANALYZE. */
export async function seedScaleRows(
  pool: pg.Pool,
  rows: number,
  progress: (done: number) => void,
): Promise<SeedResult> {
  const started = performance.now();
  for (let from = 1; from <= rows; from += CHUNK) {
    const to = Math.min(rows, from + CHUNK - 1);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (const statement of CHUNK_STATEMENTS) await client.query(statement, [from, to]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    progress(to);
  }
  const seconds = (performance.now() - started) / 1000;
  // What autovacuum would reach on its own after a while: visibility maps and planner statistics.
  for (const table of SEEDED_TABLES) await pool.query(`VACUUM ANALYZE ${table}`);
  return { rows, seconds, transactionsPerSec: rows / seconds };
}
