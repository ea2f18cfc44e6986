import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { transactionStatuses } from '@qr-payout/platform/vocabulary';
import { CreditorSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import {
  AppliedQuoteSchema,
  type Transaction,
  TransactionSchema,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { InstructionFacts, StoredTransaction } from './transaction';

// The creditor is stored as protobuf JSON inside the decoded QR; fields added later are ignored.
const READ_OPTIONS = { ignoreUnknownFields: true };

/**
 * The payout.payout.v1.Transaction of a stored transaction; result and error only when stored
 * (docs/api/resources.md "Transactions"). With the instruction's facts, also country, creditor and
 * the applied quote.
 */
export function toTransactionMessage(row: StoredTransaction, facts?: InstructionFacts): Transaction {
  const status = transactionStatuses.isName(row.status) ? transactionStatuses.toProto(row.status) : undefined;
  if (status === undefined) throw new Error(`transaction ${row.id} has unknown status ${row.status}`);
  return create(TransactionSchema, {
    id: row.id,
    tenantId: row.tenantId,
    instructionId: row.instructionId,
    status,
    rail: row.rail,
    schemeId: row.schemeId,
    createdAt: timestampFromDate(row.createdAt),
    updatedAt: timestampFromDate(row.updatedAt),
    amount: { currency: row.amountCurrency, amountMinor: row.amountMinor },
    payAmount: { currency: row.payCurrency, amountMinor: row.payAmountMinor },
    callbackUrl: row.callbackUrl ?? '',
    ...(facts ? instructionFactFields(facts) : {}),
    ...(row.resultReference !== null && row.resultSettledAt !== null
      ? {
          result: {
            reference: row.resultReference,
            settledAt: timestampFromDate(row.resultSettledAt),
          },
        }
      : {}),
    ...(row.errorCode !== null
      ? {
          error: {
            code: row.errorCode,
            reason: row.errorReason ?? '',
            partnerStatus: row.errorPartnerStatus ?? '',
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
    ...(facts.quoteId !== null
      ? { quote: create(AppliedQuoteSchema, { id: facts.quoteId, rate: facts.quoteRate ?? '' }) }
      : {}),
  };
}
