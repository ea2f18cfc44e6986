// The terminal transition and its outbox event in one statement (docs/architecture.md
// "Transactions", "The outbox and Kafka").
import { context } from '@opentelemetry/api';
import type pg from 'pg';
import { OUTBOX_CHANNEL_PREFIX, OUTBOX_EVENT_COLUMNS, transactionEventValues } from '../outbox/store';
import { isTerminalStatus, type StoredTransaction } from '../transactions/transaction';
import { toTransactionMessage } from '../transactions/transaction-message';
import {
  eventTraceContext,
  LIVE_COLUMNS,
  type LiveTransaction,
  type LiveTransactionRow,
  type TerminalOutcome,
  toLiveTransaction,
} from './records';
import { findLiveTransaction } from './store-reads';

export function createSettleStatement(pool: pg.Pool) {
  return {
    async settle(
      transactionId: string,
      outcome: TerminalOutcome,
      known?: LiveTransaction,
    ): Promise<LiveTransaction | undefined> {
      const before = known ?? (await findLiveTransaction(pool, transactionId));
      if (!before || isTerminalStatus(before.status)) return undefined;
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
  };
}
