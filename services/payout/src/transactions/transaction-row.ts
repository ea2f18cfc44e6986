// The row of payout.transactions and the instruction facts read with it, as the SQL returns them
// (int8 columns arrive as strings), and their one mapping to the domain objects of store.ts. Only
// store files import this: the transactions store and the execution store read the same row.
import type {
  DescribedTransaction,
  InstructionFacts,
  StoredTransaction,
  TransactionStatus,
} from './transaction';

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
  processing_at: Date | null;
};

export type InstructionFactsRow = {
  country: string;
  creditor: unknown;
  quote_id: string | null;
  quote_rate: string | null;
};

// The payer columns are deliberately not read: no read path returns them.
export const TRANSACTION_COLUMNS = `id, tenant_id, instruction_id, scheme_id, rail, status,
  amount_currency, amount_minor, pay_currency, pay_amount_minor, callback_url,
  result_reference, result_settled_at, error_code, error_reason, error_partner_status,
  created_at, updated_at, processing_at`;

/** The InstructionFactsRow of instruction `i`. */
export const INSTRUCTION_FACT_COLUMNS = `i.country, i.decoded -> 'creditor' AS creditor, i.quote_id,
  i.quote ->> 'rate' AS quote_rate`;

export function toStoredTransaction(row: TransactionRow): StoredTransaction {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    instructionId: row.instruction_id,
    schemeId: row.scheme_id,
    rail: row.rail,
    status: row.status,
    amountCurrency: row.amount_currency,
    amountMinor: BigInt(row.amount_minor),
    payCurrency: row.pay_currency,
    payAmountMinor: BigInt(row.pay_amount_minor),
    callbackUrl: row.callback_url,
    resultReference: row.result_reference,
    resultSettledAt: row.result_settled_at,
    errorCode: row.error_code,
    errorReason: row.error_reason,
    errorPartnerStatus: row.error_partner_status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    processingAt: row.processing_at,
  };
}

export function toInstructionFacts(row: InstructionFactsRow): InstructionFacts {
  return {
    country: row.country,
    creditor: row.creditor,
    quoteId: row.quote_id,
    quoteRate: row.quote_rate,
  };
}

/** A transaction `t` with its instruction `i`'s facts: what the read paths answer. */
export type DescribedTransactionRow = TransactionRow & InstructionFactsRow;

export const DESCRIBED_COLUMNS = `${TRANSACTION_COLUMNS.split(',')
  .map((c) => `t.${c.trim()}`)
  .join(', ')}, ${INSTRUCTION_FACT_COLUMNS}`;

export function toDescribedTransaction(row: DescribedTransactionRow): DescribedTransaction {
  return { ...toStoredTransaction(row), ...toInstructionFacts(row) };
}
