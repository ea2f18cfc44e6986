import type pg from 'pg';
import type { DescribedTransaction, TransactionStatus } from './transaction';
import { DESCRIBED_COLUMNS, type DescribedTransactionRow, toDescribedTransaction } from './transaction-row';

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
  findTransaction(tenantId: string, transactionId: string): Promise<DescribedTransaction | undefined>;
  /**
   * The tenant's transactions newest first (created_at, id descending), keyset-paged: a row is
   * identified by its immutable (created_at, id), so inserts between pages never shift a page.
   */
  listTransactions(
    filter: TransactionListFilter,
  ): Promise<{ rows: DescribedTransaction[]; cursors: TransactionCursor[] }>;
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
      const row = rows[0];
      return row && toDescribedTransaction(row);
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
        rows: rows.map(toDescribedTransaction),
        cursors: rows.map((r) => ({ createdAt: r.created_at_text, id: r.id })),
      };
    },
  };
}
