// The execution store's lease and poll transitions of a transient transaction (docs/architecture.md
// "Rails and partners"): leases instead of held transactions, each a guarded UPDATE.
import type pg from 'pg';
import {
  type ClaimedTransaction,
  type ClaimedTransactionRow,
  LIVE_COLUMNS,
  type LiveTransaction,
  type LiveTransactionRow,
  toClaimedTransaction,
  toLiveTransaction,
} from './records';

export function createLeaseStatements(pool: pg.Pool) {
  return {
    async leasePendingTransaction(transactionId: string, leaseMs: number): Promise<boolean> {
      const { rowCount } = await pool.query(
        `UPDATE transactions
            SET lease_until = now() + $2 * interval '1 millisecond',
                next_poll_at = now() + $2 * interval '1 millisecond'
          WHERE id = $1 AND status = 'pending' AND (lease_until IS NULL OR lease_until <= now())`,
        [transactionId, leaseMs],
      );
      return rowCount === 1;
    },

    async markProcessing(
      transactionId: string,
      partnerPayoutId: string,
      pollInMs: number,
      opts?: { fromPendingOnly?: boolean },
    ): Promise<LiveTransaction | undefined> {
      const from = opts?.fromPendingOnly ? ['pending'] : ['pending', 'processing'];
      const { rows } = await pool.query<LiveTransactionRow>(
        `UPDATE transactions
            SET status = 'processing', partner_payout_id = $2,
                -- Counted from the submission: an in-flight answer to a poll keeps the count, or
                -- the backoff would restart at every poll and never grow.
                poll_attempts = CASE WHEN status = 'pending' THEN 0 ELSE poll_attempts END,
                -- The state history's time of entering processing (docs/api/resources.md "State
                -- history"): the first move only, an in-flight answer to a poll keeps it.
                processing_at = CASE WHEN status = 'pending' THEN now() ELSE processing_at END,
                lease_until = NULL,
                next_poll_at = now() + $3 * interval '1 millisecond', updated_at = now()
          WHERE id = $1 AND status = ANY($4::text[])
          RETURNING ${LIVE_COLUMNS}`,
        [transactionId, partnerPayoutId, pollInMs, from],
      );
      const row = rows[0];
      return row && toLiveTransaction(row);
    },

    async releaseForRetry(transactionId: string, pollInMs: number): Promise<void> {
      await pool.query(
        `UPDATE transactions
            SET lease_until = NULL, next_poll_at = now() + $2 * interval '1 millisecond'
          WHERE id = $1 AND status IN ('pending', 'processing')`,
        [transactionId, pollInMs],
      );
    },

    async abandonUnsubmitted(transactionId: string): Promise<boolean> {
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

    async claimDueTransactions(limit: number, leaseMs: number): Promise<ClaimedTransaction[]> {
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

    async markStuck(transactionId: string, pollInMs: number): Promise<boolean> {
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
