// The transaction as the services see it: what the store answers and the messages are built from.
import type { TransactionStatusName } from '@qr-payout/platform/vocabulary';

/** A stored status: the public list (platform vocabulary), which the table's CHECK repeats. */
export type TransactionStatus = TransactionStatusName;

/** Completed or failed: final, never changed again (docs/api/resources.md "Transaction states"). */
export function isTerminalStatus(status: TransactionStatus): boolean {
  return status === 'completed' || status === 'failed';
}

/** A stored transaction as the services see it (docs/api/resources.md "Transactions"). */
export type StoredTransaction = {
  id: string;
  tenantId: string;
  instructionId: string;
  schemeId: string;
  rail: string;
  status: TransactionStatus;
  amountCurrency: string;
  amountMinor: bigint;
  payCurrency: string;
  payAmountMinor: bigint;
  callbackUrl: string | null;
  resultReference: string | null;
  resultSettledAt: Date | null;
  errorCode: string | null;
  errorReason: string | null;
  errorPartnerStatus: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When it entered `processing` (migration 0008); null if it never did or did before 0008. */
  processingAt: Date | null;
};

/**
 * What a transaction shows of its instruction (docs/api/resources.md "Transactions"): read from
 * payout.instructions at read time, never copied onto the transaction row.
 */
export type InstructionFacts = {
  country: string;
  /** payout.decoder.v1.Creditor in protobuf JSON (the decoded QR's `creditor`), null if absent. */
  creditor: unknown;
  quoteId: string | null;
  /** The quote's exact decimal rate string, null without FX. */
  quoteRate: string | null;
};

/** A transaction with its instruction's facts: what the read paths answer. */
export type DescribedTransaction = StoredTransaction & InstructionFacts;
