// The execution store's reads: an instruction to execute, a key, a charge's holder, a transaction.
import type pg from 'pg';
import { INSTRUCTION_FACT_COLUMNS } from '../transactions/transaction-row';
import {
  type ChargeHolder,
  type ChargeHolderRow,
  type ExecutableInstruction,
  type ExecutableInstructionRow,
  type IdempotencyKeyRow,
  LIVE_COLUMNS,
  type LiveTransaction,
  type LiveTransactionRow,
  type StoredIdempotencyKey,
  type SubmissionRow,
  type TransactionToSubmit,
  toExecutableInstruction,
  toLiveTransaction,
  toTransactionToSubmit,
} from './records';

export async function findLiveTransaction(
  pool: pg.Pool,
  transactionId: string,
): Promise<LiveTransaction | undefined> {
  const { rows } = await pool.query<LiveTransactionRow>(
    `SELECT ${LIVE_COLUMNS} FROM transactions WHERE id = $1`,
    [transactionId],
  );
  const row = rows[0];
  return row && toLiveTransaction(row);
}

export function createReadQueries(pool: pg.Pool) {
  return {
    async findExecutableInstruction(
      tenantId: string,
      instructionId: string,
    ): Promise<ExecutableInstruction | undefined> {
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

    async findIdempotencyKey(tenantId: string, key: string): Promise<StoredIdempotencyKey | undefined> {
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

    async findChargeHolder(chargeKey: string): Promise<ChargeHolder | undefined> {
      // Same predicate as the partial index, which answers it.
      const { rows } = await pool.query<ChargeHolderRow>(
        `SELECT id, tenant_id, instruction_id FROM transactions
          WHERE charge_key = $1 AND status <> 'failed'`,
        [chargeKey],
      );
      const row = rows[0];
      return row && { id: row.id, tenantId: row.tenant_id, instructionId: row.instruction_id };
    },

    async findSubmission(transactionId: string): Promise<TransactionToSubmit | undefined> {
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

    findTransaction: (transactionId: string) => findLiveTransaction(pool, transactionId),
  };
}
