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

/**
 * What a transaction shows of its instruction (issue 10 "money on every resource"): read from
 * payout.instructions at read time, never copied onto the transaction row.
 */
export type InstructionFacts = {
  country: string;
  /** payout.decoder.v1.Creditor in protobuf JSON (the decoded QR's `creditor`), null if absent. */
  creditor: unknown;
  quote_id: string | null;
  /** The quote's exact decimal rate string, null without FX. */
  quote_rate: string | null;
};

/** A transaction with its instruction's facts: what the read paths answer. */
export type DescribedTransactionRow = TransactionRow & InstructionFacts;

// The payer columns are deliberately not read: no read path returns them. Shared with the
// execution store, whose rows become the same Transaction message.
export const TRANSACTION_COLUMNS = `id, tenant_id, instruction_id, scheme_id, rail, status,
  amount_currency, amount_minor, pay_currency, pay_amount_minor, callback_url,
  result_reference, result_settled_at, error_code, error_reason, error_partner_status,
  created_at, updated_at`;

/** The InstructionFacts of instruction `i`; shared with the execution store. */
export const INSTRUCTION_FACT_COLUMNS = `i.country, i.decoded -> 'creditor' AS creditor, i.quote_id,
  i.quote ->> 'rate' AS quote_rate`;

const DESCRIBED_COLUMNS = `${TRANSACTION_COLUMNS.split(',')
  .map((c) => `t.${c.trim()}`)
  .join(', ')}, ${INSTRUCTION_FACT_COLUMNS}`;

/** A position in the newest-first order: created_at with its microseconds, then id. */
export type TransactionCursor = { createdAt: string; id: string };

export type TransactionListFilter = {
  tenantId: string;
  status: TransactionStatus | undefined;
  createdGte: Date | undefined;
  createdLt: Date | undefined;
  /** Rows strictly after this position in the newest-first order. */
  after: TransactionCursor | undefined;
  limit: number;
};

export interface TransactionStore {
  /** The tenant's transaction with this id; undefined for an unknown id or another tenant's. */
  findTransaction(tenantId: string, transactionId: string): Promise<DescribedTransactionRow | undefined>;
  /**
   * The tenant's transactions newest first (created_at, id descending), keyset-paged: a row is
   * identified by its immutable (created_at, id), so inserts between pages never shift a page.
   */
  listTransactions(
    filter: TransactionListFilter,
  ): Promise<{ rows: DescribedTransactionRow[]; cursors: TransactionCursor[] }>;
}

export function createTransactionStore(pool: pg.Pool): TransactionStore {
  return {
    async findTransaction(tenantId, transactionId) {
      const { rows } = await pool.query<DescribedTransactionRow>(
        `SELECT ${DESCRIBED_COLUMNS}
           FROM transactions t JOIN instructions i ON i.id = t.instruction_id
          WHERE t.id = $1 AND t.tenant_id = $2`,
        [transactionId, tenantId],
      );
      return rows[0];
    },

    async listTransactions(filter) {
      // created_at as text with its microseconds: a cursor from a JS Date (milliseconds) would
      // skip or repeat rows created within the same millisecond.
      const { rows } = await pool.query<DescribedTransactionRow & { created_at_text: string }>(
        `SELECT ${DESCRIBED_COLUMNS},
                to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_text
           FROM transactions t JOIN instructions i ON i.id = t.instruction_id
          WHERE t.tenant_id = $1
            AND ($2::text IS NULL OR t.status = $2)
            AND ($3::timestamptz IS NULL OR t.created_at >= $3)
            AND ($4::timestamptz IS NULL OR t.created_at < $4)
            AND ($5::timestamptz IS NULL OR (t.created_at, t.id) < ($5::timestamptz, $6::text))
          ORDER BY t.created_at DESC, t.id DESC
          LIMIT $7`,
        [
          filter.tenantId,
          filter.status ?? null,
          filter.createdGte ?? null,
          filter.createdLt ?? null,
          filter.after?.createdAt ?? null,
          filter.after?.id ?? null,
          filter.limit,
        ],
      );
      return {
        rows: rows.map(({ created_at_text: _, ...row }) => row),
        cursors: rows.map((r) => ({ createdAt: r.created_at_text, id: r.id })),
      };
    },
  };
}
