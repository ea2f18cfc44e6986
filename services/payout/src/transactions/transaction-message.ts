import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  type Transaction,
  TransactionSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { TransactionStatus as StoredStatus, TransactionRow } from './store';

const STATUS: Record<StoredStatus, TransactionStatus> = {
  pending: TransactionStatus.PENDING,
  processing: TransactionStatus.PROCESSING,
  completed: TransactionStatus.COMPLETED,
  failed: TransactionStatus.FAILED,
};

/** The payout.payout.v1.Transaction of a stored row; result and error only when stored (spec §2.2). */
export function toTransactionMessage(row: TransactionRow): Transaction {
  const status = STATUS[row.status];
  if (status === undefined) throw new Error(`transaction ${row.id} has unknown status ${row.status}`);
  return create(TransactionSchema, {
    id: row.id,
    tenantId: row.tenant_id,
    instructionId: row.instruction_id,
    status,
    rail: row.rail,
    schemeId: row.scheme_id,
    createdAt: timestampFromDate(row.created_at),
    updatedAt: timestampFromDate(row.updated_at),
    amount: { currency: row.amount_currency, amountMinor: BigInt(row.amount_minor) },
    payAmount: { currency: row.pay_currency, amountMinor: BigInt(row.pay_amount_minor) },
    callbackUrl: row.callback_url ?? '',
    ...(row.result_reference !== null && row.result_settled_at !== null
      ? {
          result: {
            reference: row.result_reference,
            settledAt: timestampFromDate(row.result_settled_at),
          },
        }
      : {}),
    ...(row.error_code !== null
      ? {
          error: {
            code: row.error_code,
            reason: row.error_reason ?? '',
            partnerStatus: row.error_partner_status ?? '',
          },
        }
      : {}),
  });
}
