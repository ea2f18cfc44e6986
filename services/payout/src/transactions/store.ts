import type pg from 'pg';

export type TransactionStatus = 'pending' | 'processing' | 'completed' | 'failed';

/** A row of payout.transactions as the store reads it (int8 columns arrive as strings). */
export type TransactionRow = {
  id: string;
  tenant_id: string;
  instruction_id: string;
  scheme_id: string;
  rail: string;
  status: TransactionStatus;
  amount_currency: string;
  amount_minor: string;
  pay_currency: string;
  pay_amount_minor: string;
  callback_url: string | null;
  result_reference: string | null;
  result_settled_at: Date | null;
  error_code: string | null;
  error_reason: string | null;
  error_partner_status: string | null;
  created_at: Date;
  updated_at: Date;
};

// The payer columns are deliberately not read: no read path returns them. Shared with the
// execution store, whose rows become the same Transaction message.
export const TRANSACTION_COLUMNS = `id, tenant_id, instruction_id, scheme_id, rail, status,
  amount_currency, amount_minor, pay_currency, pay_amount_minor, callback_url,
  result_reference, result_settled_at, error_code, error_reason, error_partner_status,
  created_at, updated_at`;

export interface TransactionStore {
  /** The tenant's transaction with this id; undefined for an unknown id or another tenant's. */
  findTransaction(tenantId: string, transactionId: string): Promise<TransactionRow | undefined>;
}

export function createTransactionStore(pool: pg.Pool): TransactionStore {
  return {
    async findTransaction(tenantId, transactionId) {
      const { rows } = await pool.query<TransactionRow>(
        `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = $1 AND tenant_id = $2`,
        [transactionId, tenantId],
      );
      return rows[0];
    },
  };
}
