// The records of the money path as the execution store reads and writes them, with their rows as
// the SQL returns them (int8 columns arrive as strings) and the one mapping between the two.
import { type Context, context, ROOT_CONTEXT } from '@opentelemetry/api';
import type { PayerIdType } from '@qr-payout/platform/payer-fields';
import { extractTraceContext } from '@qr-payout/platform/telemetry';
import type { ValidPayer } from '../payers/validate-payer';
import type { InstructionFacts, StoredTransaction } from '../transactions/transaction';
import {
  type InstructionFactsRow,
  TRANSACTION_COLUMNS,
  type TransactionRow,
  toInstructionFacts,
  toStoredTransaction,
} from '../transactions/transaction-row';

/**
 * The instruction as execute needs it, with its transaction once executed; its facts (country,
 * creditor, quote) are what execute's answer shows, as GetTransaction does.
 */
export type ExecutableInstruction = InstructionFacts & {
  id: string;
  tenantId: string;
  schemeId: string;
  rail: string;
  amountCurrency: string;
  amountMinor: bigint;
  payCurrency: string;
  payAmountMinor: bigint;
  /** payout.decoder.v1.DecodedQr in protobuf JSON. */
  decoded: unknown;
  /** The single-use charge it pays (`instructions/charge-key.ts`); null for a reusable QR. */
  chargeKey: string | null;
  transactionId: string | null;
};

export type ExecutableInstructionRow = InstructionFactsRow & {
  id: string;
  tenant_id: string;
  scheme_id: string;
  rail: string;
  amount_currency: string;
  amount_minor: string;
  pay_currency: string;
  pay_amount_minor: string;
  decoded: unknown;
  charge_key: string | null;
  transaction_id: string | null;
};

export function toExecutableInstruction(row: ExecutableInstructionRow): ExecutableInstruction {
  return {
    ...toInstructionFacts(row),
    id: row.id,
    tenantId: row.tenant_id,
    schemeId: row.scheme_id,
    rail: row.rail,
    amountCurrency: row.amount_currency,
    amountMinor: BigInt(row.amount_minor),
    payCurrency: row.pay_currency,
    payAmountMinor: BigInt(row.pay_amount_minor),
    decoded: row.decoded,
    chargeKey: row.charge_key,
    transactionId: row.transaction_id,
  };
}

/** A key's durable record: the transaction it executed, and through it the instruction. */
export type StoredIdempotencyKey = {
  requestFingerprint: string;
  transactionId: string;
  instructionId: string;
};

export type IdempotencyKeyRow = {
  request_fingerprint: string;
  transaction_id: string;
  instruction_id: string;
};

/**
 * The W3C trace context of the pay (or execute) that created a transaction, as stored text
 * (migration 0007, docs/architecture.md "Traces").
 */
export type PayTraceContext = { traceparent: string; tracestate: string | null };

/** A transaction with what the money path needs beyond the public fields. */
export type LiveTransaction = StoredTransaction & {
  partnerPayoutId: string | null;
  /** Null when telemetry was off at the pay (or the row predates migration 0007). */
  payTraceContext: PayTraceContext | null;
};

export type LiveTransactionRow = TransactionRow & {
  partner_payout_id: string | null;
  traceparent: string | null;
  tracestate: string | null;
};

export function toLiveTransaction(row: LiveTransactionRow): LiveTransaction {
  return {
    ...toStoredTransaction(row),
    partnerPayoutId: row.partner_payout_id,
    payTraceContext:
      row.traceparent === null ? null : { traceparent: row.traceparent, tracestate: row.tracestate },
  };
}

/**
 * The context a settlement's outbox event carries (docs/architecture.md "Traces"): the pay's, so
 * that the webhook attempts join the pay's trace whichever path settled it; the active one for a row
 * without a stored context.
 */
export function eventTraceContext(txn: Pick<LiveTransaction, 'payTraceContext'>): Context {
  const stored = txn.payTraceContext;
  if (stored === null) return context.active();
  return extractTraceContext(
    stored.tracestate === null
      ? { traceparent: stored.traceparent }
      : { traceparent: stored.traceparent, tracestate: stored.tracestate },
    ROOT_CONTEXT,
  );
}

/** Everything a submission to the partner is built from. */
export type TransactionToSubmit = LiveTransaction & {
  payer: ValidPayer;
  /** payout.decoder.v1.DecodedQr in protobuf JSON. */
  decoded: unknown;
  quoteId: string | null;
};

export type SubmissionRow = LiveTransactionRow & {
  payer_name: string;
  payer_account: string;
  payer_tax_id: string;
  /** The document's issuing country and type; null when not declared (payers/identity.ts). */
  payer_country: string | null;
  payer_id_type: PayerIdType | null;
  decoded: unknown;
  quote_id: string | null;
};

export function toTransactionToSubmit(row: SubmissionRow): TransactionToSubmit {
  return {
    ...toLiveTransaction(row),
    payer: {
      name: row.payer_name,
      account: row.payer_account,
      taxId: row.payer_tax_id,
      country: row.payer_country,
      idType: row.payer_id_type,
    },
    decoded: row.decoded,
    quoteId: row.quote_id,
  };
}

export type NewTransaction = {
  id: string;
  instruction: ExecutableInstruction;
  /** The charge the transaction pays, copied from the instruction; null for a reusable QR. */
  chargeKey: string | null;
  payer: ValidPayer;
  callbackUrl: string | null;
};

/** A terminal outcome to store: the result or the error (docs/api/resources.md "Transactions"). */
export type TerminalOutcome =
  | { status: 'completed'; partnerPayoutId: string | null; reference: string; settledAt: Date }
  | {
      status: 'failed';
      partnerPayoutId: string | null;
      code: string;
      reason: string;
      partnerStatus: string | null;
    };

/** A transaction the polling worker claimed (its lease is held until released or expired). */
export type ClaimedTransaction = {
  id: string;
  status: 'pending' | 'processing';
  rail: string;
  partnerPayoutId: string | null;
  pollAttempts: number;
  /** Milliseconds since created_at by the database's clock (the settlement horizon counts it). */
  ageMs: number;
  /** Set once the worker reported it stuck (migration 0005). */
  stuckSince: Date | null;
};

export type ClaimedTransactionRow = {
  id: string;
  status: 'pending' | 'processing';
  rail: string;
  partner_payout_id: string | null;
  poll_attempts: number;
  age_ms: number;
  stuck_since: Date | null;
};

export function toClaimedTransaction(row: ClaimedTransactionRow): ClaimedTransaction {
  return {
    id: row.id,
    status: row.status,
    rail: row.rail,
    partnerPayoutId: row.partner_payout_id,
    pollAttempts: row.poll_attempts,
    ageMs: row.age_ms,
    stuckSince: row.stuck_since,
  };
}

/** The live transaction that holds a charge (migration 0002: one per charge unless failed). */
export type ChargeHolder = { id: string; tenantId: string; instructionId: string };

export type ChargeHolderRow = { id: string; tenant_id: string; instruction_id: string };

export const LIVE_COLUMNS = `${TRANSACTION_COLUMNS}, partner_payout_id, traceparent, tracestate`;

export type IdempotencyKeyToTake = { key: string; fingerprint: string; ttlMs: number };
export type InsertOutcome =
  | { kind: 'inserted'; row: LiveTransaction }
  | { kind: 'duplicate' }
  | { kind: 'charge_taken' };
