import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { Money } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { Transaction, TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { type TransactionStatusName, transactionStatuses } from '../vocabulary';
import { fromMinorUnits } from './money';

/** A transaction status as the public API and payoutctl write it ("pending", "completed", ...). */
export function transactionStatusName(status: TransactionStatus): TransactionStatusName {
  return transactionStatuses.nameOf(status) ?? 'pending';
}

interface PublicTransaction {
  id: string;
  instructionId: string;
  status: string;
  rail: string;
  createdAt: string;
  updatedAt: string;
  result: { reference: string; settledAt: string | null } | null;
  error: { reason: string; code: string; partnerStatus: string } | null;
  // Additions (docs/api/resources.md "Transactions"): camelCase like the other
  // transaction fields (docs/api/resources.md "Naming"); the wallet fields and quote are null when
  // no FX applied.
  /** What the merchant receives, in `currency`. */
  amount: number;
  currency: string;
  creditor: { name: string; account: string };
  scheme: string;
  country: string;
  /** What the payer paid in `walletCurrency` (the quote's source amount plus its fee). */
  walletAmount: number | null;
  walletCurrency: string | null;
  quote: { id: string; rate: string } | null;
  /** Every state entered, oldest first, the last being `status` (docs/api/resources.md "State history"). */
  statusHistory: { status: string; at: string }[];
}

// The one presenter of the public transaction JSON (docs/api/resources.md "Transactions"): the gateway's
// transaction answers and the webhook envelope's `data` (docs/api/webhooks.md "The event") are both
// made from it, so an event can never show a transaction differently from GET
// /v1/transactions/{id}.

/**
 * The transaction as the API shows it (docs/api/resources.md "Transactions"): camelCase,
 * timestamps in ISO 8601 UTC with milliseconds, `result` and `error` always present (null until
 * set) so a client can read them without checking for the key (docs/api/resources.md "Naming").
 */
export function toPublicTransaction(txn: Transaction): PublicTransaction {
  return {
    id: txn.id,
    instructionId: txn.instructionId,
    status: transactionStatusName(txn.status),
    rail: txn.rail,
    createdAt: isoOrEmpty(txn.createdAt),
    updatedAt: isoOrEmpty(txn.updatedAt),
    result: txn.result
      ? {
          reference: txn.result.reference,
          settledAt: txn.result.settledAt ? iso(txn.result.settledAt) : null,
        }
      : null,
    error: txn.error
      ? { reason: txn.error.reason, code: txn.error.code, partnerStatus: txn.error.partnerStatus }
      : null,
    amount: money(txn.amount),
    currency: txn.amount?.currency ?? '',
    creditor: { name: txn.creditor?.name ?? '', account: txn.creditor?.account ?? '' },
    scheme: txn.schemeId,
    country: txn.country,
    walletAmount: txn.quote && txn.payAmount ? money(txn.payAmount) : null,
    walletCurrency: txn.quote && txn.payAmount ? txn.payAmount.currency : null,
    quote: txn.quote ? { id: txn.quote.id, rate: txn.quote.rate } : null,
    statusHistory: txn.statusHistory.map((change) => ({
      status: transactionStatusName(change.status),
      at: isoOrEmpty(change.at),
    })),
  };
}

function money(m: Money | undefined): number {
  return m ? fromMinorUnits(m.amountMinor, m.currency) : 0;
}

function iso(ts: Timestamp): string {
  return timestampDate(ts).toISOString();
}

function isoOrEmpty(ts: Timestamp | undefined): string {
  return ts ? iso(ts) : '';
}
