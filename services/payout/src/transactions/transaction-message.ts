import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { transactionStatuses } from '@qr-payout/platform/vocabulary';
import { CreditorSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import {
  AppliedQuoteSchema,
  type StatusChange,
  StatusChangeSchema,
  type Transaction,
  TransactionSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { type InstructionFacts, isTerminalStatus, type StoredTransaction } from './transaction';

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
    statusHistory: statusHistoryOf(row, status),
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

/**
 * Every state the transaction entered, oldest first (docs/api/resources.md "State history"):
 * `pending` at its creation; `processing` at `processingAt`; the terminal state at `updatedAt`, since
 * a completed or failed transaction never changes again. A transaction that went straight from
 * pending to its outcome shows no `processing`. One that was processing before migration 0008
 * recorded `processingAt` (or whose move was written by a replica older than it) shows its last
 * change instead while it is still processing, and no `processing` once settled: the history never
 * shows a time that was not recorded, and always ends with the current status.
 */
function statusHistoryOf(row: StoredTransaction, status: TransactionStatus): StatusChange[] {
  const change = (entered: TransactionStatus, at: Date) =>
    create(StatusChangeSchema, { status: entered, at: timestampFromDate(at) });
  const history = [change(TransactionStatus.PENDING, row.createdAt)];
  if (row.processingAt !== null) history.push(change(TransactionStatus.PROCESSING, row.processingAt));
  else if (row.status === 'processing') history.push(change(status, row.updatedAt));
  if (isTerminalStatus(row.status)) history.push(change(status, row.updatedAt));
  return history;
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
