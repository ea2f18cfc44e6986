import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CreditorSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import {
  AppliedQuoteSchema,
  type Transaction,
  TransactionSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { InstructionFacts, TransactionStatus as StoredStatus, TransactionRow } from './store';

const STATUS: Record<StoredStatus, TransactionStatus> = {
  pending: TransactionStatus.PENDING,
  processing: TransactionStatus.PROCESSING,
  completed: TransactionStatus.COMPLETED,
  failed: TransactionStatus.FAILED,
};

// The creditor is stored as protobuf JSON inside the decoded QR; fields added later are ignored.
const READ_OPTIONS = { ignoreUnknownFields: true };

/**
 * The payout.payout.v1.Transaction of a stored row; result and error only when stored
 * (docs/api/resources.md "Transactions"). With the instruction's facts, also country, creditor and
 * the applied quote.
 */
export function toTransactionMessage(row: TransactionRow, facts?: InstructionFacts): Transaction {
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
    ...(facts ? instructionFactFields(facts) : {}),
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

function instructionFactFields(facts: InstructionFacts) {
  return {
    country: facts.country,
    ...(facts.creditor !== null && facts.creditor !== undefined
      ? { creditor: fromJson(CreditorSchema, facts.creditor as JsonValue, READ_OPTIONS) }
      : {}),
    ...(facts.quote_id !== null
      ? { quote: create(AppliedQuoteSchema, { id: facts.quote_id, rate: facts.quote_rate ?? '' }) }
      : {}),
  };
}
