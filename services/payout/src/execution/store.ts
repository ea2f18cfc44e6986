// All SQL of the money path (docs/architecture.md "Transactions"): durable idempotency, the pending
// → processing → completed|failed state machine with its outbox event, and the polling worker's
// claims.
import { type Context, context, ROOT_CONTEXT } from '@opentelemetry/api';
import { extractTraceContext, traceHeadersOf } from '@qr-payout/platform/telemetry';
import type pg from 'pg';
import type { NewInstruction } from '../instructions/store';
import { OUTBOX_CHANNEL_PREFIX, OUTBOX_EVENT_COLUMNS, transactionEventValues } from '../outbox/store';
import type { PayerIdType } from '../payers/documents';
import type { ValidPayer } from '../payers/validate-payer';
import type { InstructionFacts, StoredTransaction } from '../transactions/transaction';
import { toTransactionMessage } from '../transactions/transaction-message';
import {
  INSTRUCTION_FACT_COLUMNS,
  type InstructionFactsRow,
  TRANSACTION_COLUMNS,
  type TransactionRow,
  toInstructionFacts,
  toStoredTransaction,
} from '../transactions/transaction-row';

/**
 * The instruction as execute needs it, with its transaction once executed; its facts (country,
 * creditor, quote) are what execute's answer shows, as GetTransaction does.
 */
export type ExecutableInstruction = InstructionFacts & {
  id: string;
  tenantId: string;
  schemeId: string;
  rail: string;
  amountCurrency: string;
  amountMinor: bigint;
  payCurrency: string;
  payAmountMinor: bigint;
  /** payout.decoder.v1.DecodedQr in protobuf JSON. */
  decoded: unknown;
  /** The single-use charge it pays (`instructions/charge-key.ts`); null for a reusable QR. */
  chargeKey: string | null;
  transactionId: string | null;
};

type ExecutableInstructionRow = InstructionFactsRow & {
  id: string;
  tenant_id: string;
  scheme_id: string;
  rail: string;
  amount_currency: string;
  amount_minor: string;
  pay_currency: string;
  pay_amount_minor: string;
  decoded: unknown;
  charge_key: string | null;
  transaction_id: string | null;
};

function toExecutableInstruction(row: ExecutableInstructionRow): ExecutableInstruction {
  return {
    ...toInstructionFacts(row),
    id: row.id,
    tenantId: row.tenant_id,
    schemeId: row.scheme_id,
    rail: row.rail,
    amountCurrency: row.amount_currency,
    amountMinor: BigInt(row.amount_minor),
    payCurrency: row.pay_currency,
    payAmountMinor: BigInt(row.pay_amount_minor),
    decoded: row.decoded,
    chargeKey: row.charge_key,
    transactionId: row.transaction_id,
  };
}

/** A key's durable record: the transaction it executed, and through it the instruction. */
export type StoredIdempotencyKey = {
  requestFingerprint: string;
  transactionId: string;
  instructionId: string;
};

type IdempotencyKeyRow = {
  request_fingerprint: string;
  transaction_id: string;
  instruction_id: string;
};

/**
 * The W3C trace context of the pay (or execute) that created a transaction, as stored text
 * (migration 0007, docs/architecture.md "Traces").
 */
export type PayTraceContext = { traceparent: string; tracestate: string | null };

/** A transaction with what the money path needs beyond the public fields. */
export type LiveTransaction = StoredTransaction & {
  partnerPayoutId: string | null;
  /** Null when telemetry was off at the pay (or the row predates migration 0007). */
  payTraceContext: PayTraceContext | null;
};

type LiveTransactionRow = TransactionRow & {
  partner_payout_id: string | null;
  traceparent: string | null;
  tracestate: string | null;
};

function toLiveTransaction(row: LiveTransactionRow): LiveTransaction {
  return {
    ...toStoredTransaction(row),
    partnerPayoutId: row.partner_payout_id,
    payTraceContext:
      row.traceparent === null ? null : { traceparent: row.traceparent, tracestate: row.tracestate },
  };
}

/**
 * The context a settlement's outbox event carries (docs/architecture.md "Traces"): the pay's, so
 * that the webhook attempts join the pay's trace whichever path settled it; the active one for a row
 * without a stored context.
 */
export function eventTraceContext(txn: Pick<LiveTransaction, 'payTraceContext'>): Context {
  const stored = txn.payTraceContext;
  if (stored === null) return context.active();
  return extractTraceContext(
    stored.tracestate === null
      ? { traceparent: stored.traceparent }
      : { traceparent: stored.traceparent, tracestate: stored.tracestate },
    ROOT_CONTEXT,
  );
}

/** Everything a submission to the partner is built from. */
export type TransactionToSubmit = LiveTransaction & {
  payer: ValidPayer;
  /** payout.decoder.v1.DecodedQr in protobuf JSON. */
  decoded: unknown;
  quoteId: string | null;
};

type SubmissionRow = LiveTransactionRow & {
  payer_name: string;
  payer_account: string;
  payer_tax_id: string;
  /** The document's issuing country and type; null when not declared (payers/identity.ts). */
  payer_country: string | null;
  payer_id_type: PayerIdType | null;
  decoded: unknown;
  quote_id: string | null;
};

function toTransactionToSubmit(row: SubmissionRow): TransactionToSubmit {
  return {
    ...toLiveTransaction(row),
    payer: {
      name: row.payer_name,
      account: row.payer_account,
      taxId: row.payer_tax_id,
      country: row.payer_country,
      idType: row.payer_id_type,
    },
    decoded: row.decoded,
    quoteId: row.quote_id,
  };
}

export type NewTransaction = {
  id: string;
  instruction: ExecutableInstruction;
  /** The charge the transaction pays, copied from the instruction; null for a reusable QR. */
  chargeKey: string | null;
  payer: ValidPayer;
  callbackUrl: string | null;
};

/** A terminal outcome to store: the result or the error (docs/api/resources.md "Transactions"). */
export type TerminalOutcome =
  | { status: 'completed'; partnerPayoutId: string | null; reference: string; settledAt: Date }
  | {
      status: 'failed';
      partnerPayoutId: string | null;
      code: string;
      reason: string;
      partnerStatus: string | null;
    };

/** A transaction the polling worker claimed (its lease is held until released or expired). */
export type ClaimedTransaction = {
  id: string;
  status: 'pending' | 'processing';
  rail: string;
  partnerPayoutId: string | null;
  pollAttempts: number;
  /** Milliseconds since created_at by the database's clock (the settlement horizon counts it). */
  ageMs: number;
  /** Set once the worker reported it stuck (migration 0005). */
  stuckSince: Date | null;
};

type ClaimedTransactionRow = {
  id: string;
  status: 'pending' | 'processing';
  rail: string;
  partner_payout_id: string | null;
  poll_attempts: number;
  age_ms: number;
  stuck_since: Date | null;
};

function toClaimedTransaction(row: ClaimedTransactionRow): ClaimedTransaction {
  return {
    id: row.id,
    status: row.status,
    rail: row.rail,
    partnerPayoutId: row.partner_payout_id,
    pollAttempts: row.poll_attempts,
    ageMs: row.age_ms,
    stuckSince: row.stuck_since,
  };
}

/** The live transaction that holds a charge (migration 0002: one per charge unless failed). */
export type ChargeHolder = { id: string; tenantId: string; instructionId: string };

type ChargeHolderRow = { id: string; tenant_id: string; instruction_id: string };

const LIVE_COLUMNS = `${TRANSACTION_COLUMNS}, partner_payout_id, traceparent, tracestate`;
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

export type IdempotencyKeyToTake = { key: string; fingerprint: string; ttlMs: number };
export type InsertOutcome =
  | { kind: 'inserted'; row: LiveTransaction }
  | { kind: 'duplicate' }
  | { kind: 'charge_taken' };

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

export interface ExecutionStore {
  findExecutableInstruction(
    tenantId: string,
    instructionId: string,
  ): Promise<ExecutableInstruction | undefined>;
  /**
   * The tenant's unexpired key (docs/api/idempotency.md "The Idempotency-Key": after 24 h a key may
   * be reused with any body).
   */
  findIdempotencyKey(tenantId: string, key: string): Promise<StoredIdempotencyKey | undefined>;
  /**
   * Inserts the pending transaction and its idempotency key in ONE database transaction, the
   * transaction leased to the caller for `leaseMs`. `duplicate` when the key or the instruction
   * already has one; `charge_taken` when another live transaction pays the same single-use charge
   * (nothing is written then either): the unique constraints decide races, not a prior read.
   */
  insertPendingTransaction(
    txn: NewTransaction,
    /** Keys are per tenant: this one is the instruction's tenant's. */
    key: IdempotencyKeyToTake,
    leaseMs: number,
  ): Promise<InsertOutcome>;
  /**
   * Pay's write (POST /v1/pay): the resolved instruction, its pending transaction and the key in
   * ONE statement, so a request that loses its key to a concurrent one (`duplicate`) or finds the
   * charge taken (`charge_taken`) leaves no instruction behind. `createdAt`: the instruction's
   * (and the transaction's) creation time.
   */
  insertPaidInstruction(
    instruction: NewInstruction,
    txn: Omit<NewTransaction, 'instruction'>,
    key: IdempotencyKeyToTake,
    leaseMs: number,
  ): Promise<InsertOutcome>;
  /** The live (pending, processing or completed) transaction paying the charge, of any tenant. */
  findChargeHolder(chargeKey: string): Promise<ChargeHolder | undefined>;
  findTransaction(transactionId: string): Promise<LiveTransaction | undefined>;
  findSubmission(transactionId: string): Promise<TransactionToSubmit | undefined>;
  /** Leases a pending transaction whose lease is free (a replay re-running an unsent submission). */
  leasePendingTransaction(transactionId: string, leaseMs: number): Promise<boolean>;
  /**
   * pending|processing → processing with the partner's id; the next poll after `pollInMs`. The row
   * as it now stands, or undefined when it was terminal already (or unknown). `fromPendingOnly`:
   * a held acceptance recorded when execute stops waiting (README "Execute" step 4) never rewrites
   * a row that a callback or a poll moved on meanwhile.
   */
  markProcessing(
    transactionId: string,
    partnerPayoutId: string,
    pollInMs: number,
    opts?: { fromPendingOnly?: boolean },
  ): Promise<LiveTransaction | undefined>;
  /** Releases the lease of a transient transaction; the worker looks again after `pollInMs`. */
  releaseForRetry(transactionId: string, pollInMs: number): Promise<void>;
  /**
   * Deletes a pending transaction that never reached the partner, and its key, so that it never
   * existed (its quote could not be confirmed). False when it had moved on meanwhile.
   */
  abandonUnsubmitted(transactionId: string): Promise<boolean>;
  /**
   * The terminal transition and its outbox event in one database transaction
   * (docs/architecture.md "Transactions", "The outbox and Kafka"), guarded by WHERE status IN
   * ('pending','processing'). The settled row, or undefined when it was terminal already (or
   * unknown): nothing is written then. `known`: the row as the caller read it (its immutable fields
   * are all the event needs besides the outcome), saving a read.
   */
  settle(
    transactionId: string,
    outcome: TerminalOutcome,
    known?: LiveTransaction,
  ): Promise<LiveTransaction | undefined>;
  /**
   * Past its settlement horizon and not settled by the partner's answer: records `stuck_since` (kept
   * when already set), releases the lease and looks again after `pollInMs`. False when the row was
   * terminal meanwhile.
   */
  markStuck(transactionId: string, pollInMs: number): Promise<boolean>;
  /**
   * Claims due transient transactions with FOR UPDATE SKIP LOCKED and a lease
   * (docs/architecture.md "Rails and partners").
   */
  claimDueTransactions(limit: number, leaseMs: number): Promise<ClaimedTransaction[]>;
}

export function createExecutionStore(pool: pg.Pool): ExecutionStore {
  async function findTransaction(transactionId: string): Promise<LiveTransaction | undefined> {
    const { rows } = await pool.query<LiveTransactionRow>(
      `SELECT ${LIVE_COLUMNS} FROM transactions WHERE id = $1`,
      [transactionId],
    );
    const row = rows[0];
    return row && toLiveTransaction(row);
  }

  return {
    async findExecutableInstruction(tenantId, instructionId) {
      const { rows } = await pool.query<ExecutableInstructionRow>(
        `SELECT i.id, i.tenant_id, i.scheme_id, i.rail, i.amount_currency, i.amount_minor,
                i.pay_currency, i.pay_amount_minor, i.decoded, i.charge_key,
                ${INSTRUCTION_FACT_COLUMNS}, t.id AS transaction_id
           FROM instructions i
           LEFT JOIN transactions t ON t.instruction_id = i.id
          WHERE i.id = $1 AND i.tenant_id = $2`,
        [instructionId, tenantId],
      );
      const row = rows[0];
      return row && toExecutableInstruction(row);
    },

    async findIdempotencyKey(tenantId, key) {
      const { rows } = await pool.query<IdempotencyKeyRow>(
        `SELECT k.request_fingerprint, k.transaction_id, t.instruction_id
           FROM idempotency_keys k JOIN transactions t ON t.id = k.transaction_id
          WHERE k.tenant_id = $1 AND k.key = $2 AND k.expires_at > now()`,
        [tenantId, key],
      );
      const row = rows[0];
      return (
        row && {
          requestFingerprint: row.request_fingerprint,
          transactionId: row.transaction_id,
          instructionId: row.instruction_id,
        }
      );
    },

    async insertPendingTransaction(txn, key, leaseMs) {
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

    async insertPaidInstruction(ins, txn, key, leaseMs) {
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

    async findChargeHolder(chargeKey) {
      // Same predicate as the partial index, which answers it.
      const { rows } = await pool.query<ChargeHolderRow>(
        `SELECT id, tenant_id, instruction_id FROM transactions
          WHERE charge_key = $1 AND status <> 'failed'`,
        [chargeKey],
      );
      const row = rows[0];
      return row && { id: row.id, tenantId: row.tenant_id, instructionId: row.instruction_id };
    },

    findTransaction,

    async findSubmission(transactionId) {
      const columns = LIVE_COLUMNS.split(',')
        .map((c) => `t.${c.trim()}`)
        .join(', ');
      const { rows } = await pool.query<SubmissionRow>(
        `SELECT ${columns}, t.payer_name, t.payer_account, t.payer_tax_id, t.payer_country,
                t.payer_id_type, i.decoded, i.quote_id
           FROM transactions t JOIN instructions i ON i.id = t.instruction_id
          WHERE t.id = $1`,
        [transactionId],
      );
      const row = rows[0];
      return row && toTransactionToSubmit(row);
    },

    async leasePendingTransaction(transactionId, leaseMs) {
      const { rowCount } = await pool.query(
        `UPDATE transactions
            SET lease_until = now() + $2 * interval '1 millisecond',
                next_poll_at = now() + $2 * interval '1 millisecond'
          WHERE id = $1 AND status = 'pending' AND (lease_until IS NULL OR lease_until <= now())`,
        [transactionId, leaseMs],
      );
      return rowCount === 1;
    },

    async markProcessing(transactionId, partnerPayoutId, pollInMs, opts) {
      const from = opts?.fromPendingOnly ? ['pending'] : ['pending', 'processing'];
      const { rows } = await pool.query<LiveTransactionRow>(
        `UPDATE transactions
            SET status = 'processing', partner_payout_id = $2,
                -- Counted from the submission: an in-flight answer to a poll keeps the count, or
                -- the backoff would restart at every poll and never grow.
                poll_attempts = CASE WHEN status = 'pending' THEN 0 ELSE poll_attempts END,
                lease_until = NULL,
                next_poll_at = now() + $3 * interval '1 millisecond', updated_at = now()
          WHERE id = $1 AND status = ANY($4::text[])
          RETURNING ${LIVE_COLUMNS}`,
        [transactionId, partnerPayoutId, pollInMs, from],
      );
      const row = rows[0];
      return row && toLiveTransaction(row);
    },

    async releaseForRetry(transactionId, pollInMs) {
      await pool.query(
        `UPDATE transactions
            SET lease_until = NULL, next_poll_at = now() + $2 * interval '1 millisecond'
          WHERE id = $1 AND status IN ('pending', 'processing')`,
        [transactionId, pollInMs],
      );
    },

    async abandonUnsubmitted(transactionId) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('DELETE FROM idempotency_keys WHERE transaction_id = $1', [transactionId]);
        const { rowCount } = await client.query(
          `DELETE FROM transactions WHERE id = $1 AND status = 'pending' AND partner_payout_id IS NULL`,
          [transactionId],
        );
        await client.query(rowCount === 1 ? 'COMMIT' : 'ROLLBACK');
        return rowCount === 1;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },

    async settle(transactionId, outcome, known) {
      const before = known ?? (await findTransaction(transactionId));
      if (!before || before.status === 'completed' || before.status === 'failed') return undefined;
      // The event is built from the row as the UPDATE below leaves it: the immutable fields of the
      // row read, the outcome, and an updated_at chosen here. Event and row then commit in ONE
      // statement (docs/architecture.md "The outbox and Kafka"), no BEGIN/COMMIT round trips; the
      // NOTIFY, carrying the transaction's id, is sent at its commit.
      const completed = outcome.status === 'completed';
      const after: StoredTransaction = {
        ...before,
        status: outcome.status,
        resultReference: completed ? outcome.reference : null,
        resultSettledAt: completed ? outcome.settledAt : null,
        errorCode: completed ? null : outcome.code,
        errorReason: completed ? null : outcome.reason,
        errorPartnerStatus: completed ? null : outcome.partnerStatus,
        updatedAt: new Date(),
      };
      // The event's headers carry the pay's context (docs/architecture.md "Traces").
      const event = context.with(eventTraceContext(before), () =>
        transactionEventValues(toTransactionMessage(after)),
      );
      const { rows } = await pool.query<LiveTransactionRow & { notified: unknown }>(
        `WITH settled AS (
           UPDATE transactions
              SET status = $2, partner_payout_id = COALESCE(partner_payout_id, $3),
                  result_reference = $4, result_settled_at = $5,
                  error_code = $6, error_reason = $7, error_partner_status = $8,
                  next_poll_at = NULL, lease_until = NULL, updated_at = $9
            WHERE id = $1 AND status IN ('pending', 'processing')
            RETURNING ${LIVE_COLUMNS}
         ), appended AS (
           INSERT INTO outbox_events ${OUTBOX_EVENT_COLUMNS}
           SELECT $10, $11, $12, $13, $14, $15 FROM settled
           RETURNING id
         )
         SELECT settled.*, (SELECT count(pg_notify($16::text || current_schema(), $17::text)) FROM appended) AS notified
           FROM settled`,
        [
          transactionId,
          after.status,
          outcome.partnerPayoutId,
          after.resultReference,
          after.resultSettledAt,
          after.errorCode,
          after.errorReason,
          after.errorPartnerStatus,
          after.updatedAt,
          ...event.values,
          OUTBOX_CHANNEL_PREFIX,
          transactionId, // the NOTIFY's payload (outbox/store.ts appendTransactionEvent)
        ],
      );
      const row = rows[0];
      return row && toLiveTransaction(row);
    },

    async claimDueTransactions(limit, leaseMs) {
      const { rows } = await pool.query<ClaimedTransactionRow>(
        `WITH due AS (
           SELECT id FROM transactions
            WHERE status IN ('pending', 'processing') AND next_poll_at <= now()
              AND (lease_until IS NULL OR lease_until <= now())
            ORDER BY next_poll_at
            LIMIT $1
            FOR UPDATE SKIP LOCKED
         )
         UPDATE transactions t
            SET lease_until = now() + $2 * interval '1 millisecond', poll_attempts = t.poll_attempts + 1,
                last_polled_at = now()
           FROM due WHERE t.id = due.id
         RETURNING t.id, t.status, t.rail, t.partner_payout_id, t.poll_attempts, t.stuck_since,
                   (extract(epoch FROM now() - t.created_at) * 1000)::float8 AS age_ms`,
        [limit, leaseMs],
      );
      return rows.map(toClaimedTransaction);
    },

    async markStuck(transactionId, pollInMs) {
      const { rowCount } = await pool.query(
        `UPDATE transactions
            SET stuck_since = COALESCE(stuck_since, now()), lease_until = NULL,
                next_poll_at = now() + $2 * interval '1 millisecond'
          WHERE id = $1 AND status IN ('pending', 'processing')`,
        [transactionId, pollInMs],
      );
      return rowCount === 1;
    },
  };
}
