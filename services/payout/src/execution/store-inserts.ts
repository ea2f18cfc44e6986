// The execution store's two INSERTs, pay's and execute's first writes (docs/api/idempotency.md
// "Execute and pay"): the key, the instruction (pay) and the pending transaction in one statement,
// the unique constraints deciding races.
import { traceHeadersOf } from '@qr-payout/platform/telemetry';
import type pg from 'pg';
import type { NewInstruction } from '../instructions/store';
import {
  type IdempotencyKeyToTake,
  type InsertOutcome,
  LIVE_COLUMNS,
  type LiveTransactionRow,
  type NewTransaction,
  toLiveTransaction,
} from './records';

const UNIQUE_VIOLATION = '23505';
/** Migration 0002's partial unique index: one live (not failed) transaction per charge. */
const LIVE_CHARGE_INDEX = 'transactions_live_charge_key';

/** The constraint (or unique index) a unique violation names; undefined for any other error. */
function uniqueViolationOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, constraint } = err as { code?: unknown; constraint?: unknown };
  if (code !== UNIQUE_VIOLATION) return undefined;
  return typeof constraint === 'string' ? constraint : '';
}

/**
 * The CTE both inserting statements start with: takes the tenant's key unless a live one holds it
 * (an expired one, docs/api/idempotency.md "The Idempotency-Key", is taken over). Its parameters
 * are those of `transactionParams`.
 */
const TAKE_KEY = `taken_key AS (
             INSERT INTO idempotency_keys (tenant_id, key, request_fingerprint, transaction_id, expires_at)
             VALUES ($2, $15, $16, $1, now() + $17 * interval '1 millisecond')
             ON CONFLICT (tenant_id, key) DO UPDATE
               SET request_fingerprint = EXCLUDED.request_fingerprint,
                   transaction_id = EXCLUDED.transaction_id,
                   created_at = now(), expires_at = EXCLUDED.expires_at
               WHERE idempotency_keys.expires_at <= now()
             RETURNING transaction_id
           )`;

/**
 * The pending transaction, leased to the caller, written only when `source` (the CTE before it)
 * yielded a row: no row, nothing written. Its parameters are those of `transactionParams`.
 */
function insertTransactionFrom(source: 'taken_key' | 'new_instruction'): string {
  return `INSERT INTO transactions (id, tenant_id, instruction_id, scheme_id, rail, status,
             amount_currency, amount_minor, pay_currency, pay_amount_minor,
             payer_name, payer_account, payer_tax_id, callback_url, lease_until, next_poll_at,
             charge_key, payer_country, payer_id_type, traceparent, tracestate)
           SELECT $1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9, $10, $11, $12, $13,
             now() + $14 * interval '1 millisecond', now() + $14 * interval '1 millisecond', $18,
             $19, $20, $21, $22
             FROM ${source}
           RETURNING ${LIVE_COLUMNS}`;
}

/**
 * $1–$22 of TAKE_KEY and insertTransactionFrom, in their order. $21, $22: the W3C context active
 * at the insert, the pay's (docs/architecture.md "Traces"); NULL when telemetry is off.
 */
function transactionParams(
  ins: Pick<
    NewInstruction,
    | 'tenantId'
    | 'id'
    | 'schemeId'
    | 'rail'
    | 'amountCurrency'
    | 'amountMinor'
    | 'payCurrency'
    | 'payAmountMinor'
  >,
  txn: Omit<NewTransaction, 'instruction'>,
  key: IdempotencyKeyToTake,
  leaseMs: number,
): unknown[] {
  const trace = traceHeadersOf();
  return [
    txn.id,
    ins.tenantId,
    ins.id,
    ins.schemeId,
    ins.rail,
    ins.amountCurrency,
    ins.amountMinor.toString(),
    ins.payCurrency,
    ins.payAmountMinor.toString(),
    txn.payer.name,
    txn.payer.account,
    txn.payer.taxId,
    txn.callbackUrl,
    leaseMs,
    key.key,
    key.fingerprint,
    key.ttlMs,
    txn.chargeKey,
    txn.payer.country,
    txn.payer.idType,
    trace['traceparent'] ?? null,
    trace['tracestate'] ?? null,
  ];
}

/**
 * What an inserting statement did: no row back means a live key held it; the instruction's UNIQUE
 * transaction is a duplicate; the charge's partial index is another payment of the charge.
 */
async function insertOutcome(query: Promise<pg.QueryResult<LiveTransactionRow>>): Promise<InsertOutcome> {
  try {
    const row = (await query).rows[0];
    return row ? { kind: 'inserted', row: toLiveTransaction(row) } : { kind: 'duplicate' };
  } catch (err) {
    const violated = uniqueViolationOf(err);
    if (violated === LIVE_CHARGE_INDEX) return { kind: 'charge_taken' };
    if (violated !== undefined) return { kind: 'duplicate' };
    throw err;
  }
}

export function createInsertStatements(pool: pg.Pool) {
  return {
    async insertPendingTransaction(
      txn: NewTransaction,
      key: IdempotencyKeyToTake,
      leaseMs: number,
    ): Promise<InsertOutcome> {
      const ins = txn.instruction;
      // One statement, so one round trip and atomic without BEGIN/COMMIT. The key goes first and
      // the transaction only follows when the key was taken: a live key of the tenant leaves both
      // unwritten; an expired one (docs/api/idempotency.md "The Idempotency-Key": free again) is
      // taken over, its old transaction keeping its own row. The key's foreign key is checked at
      // the end of the statement, once the transaction row exists; the instruction's unique
      // transaction fails the whole statement.
      return insertOutcome(
        pool.query<LiveTransactionRow>(
          `WITH ${TAKE_KEY}
           ${insertTransactionFrom('taken_key')}`,
          transactionParams(ins, txn, key, leaseMs),
        ),
      );
    },

    async insertPaidInstruction(
      ins: NewInstruction,
      txn: Omit<NewTransaction, 'instruction'>,
      key: IdempotencyKeyToTake,
      leaseMs: number,
    ): Promise<InsertOutcome> {
      // As insertPendingTransaction, with the instruction between the key and the transaction:
      // each INSERT reads the row of the one before, so a live key writes nothing at all.
      return insertOutcome(
        pool.query<LiveTransactionRow>(
          `WITH ${TAKE_KEY}, new_instruction AS (
             INSERT INTO instructions (id, tenant_id, scheme_id, country, rail, decoded,
               amount_currency, amount_minor, pay_currency, pay_amount_minor, quote_id, quote, charge_key)
             SELECT $3, $2, $4, $23, $5, $24, $6, $7, $8, $9, $25, $26, $18 FROM taken_key
             RETURNING id
           )
           ${insertTransactionFrom('new_instruction')}`,
          [
            ...transactionParams(ins, txn, key, leaseMs),
            ins.country,
            JSON.stringify(ins.decodedJson),
            ins.quoteId,
            ins.quoteJson === null ? null : JSON.stringify(ins.quoteJson),
          ],
        ),
      );
    },
  };
}
