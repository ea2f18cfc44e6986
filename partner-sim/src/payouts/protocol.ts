// The partner payout protocol (README "Partner protocol"): the shapes on the wire. Amounts are
// strings of integer minor units; statuses are ISO 20022 pacs.002 transaction statuses.

export const RAILS = [
  'pix',
  'transferencias-3.0',
  'bre-b',
  'cce-inmediatas',
  'bolivia-qr-interoperable',
] as const;
export type Rail = (typeof RAILS)[number];

/** The one currency each rail settles in (a domestic instant-payment rail moves its own money only). */
export const RAIL_CURRENCY: Readonly<Record<Rail, string>> = {
  pix: 'BRL',
  'transferencias-3.0': 'ARS',
  'bre-b': 'COP',
  'cce-inmediatas': 'PEN',
  'bolivia-qr-interoperable': 'BOB',
};

/**
 * PDNG pending, ACSP accepted and settlement in process, ACSC settled (terminal success),
 * RJCT rejected (terminal failure).
 */
export type PayoutStatus = 'PDNG' | 'ACSP' | 'ACSC' | 'RJCT';

/** ISO 20022 ExternalStatusReason1Code values the simulator produces. */
export type ReasonCode = 'AC03' | 'AM04';

export const REASON_TEXT: Readonly<Record<ReasonCode, string>> = {
  AC03: 'invalid creditor account number',
  AM04: 'insufficient funds',
};

export type Money = { currency: string; amount_minor: string };

export type SubmitPayoutBody = {
  rail: Rail;
  amount: Money;
  creditor: { name: string; account: string; account_type: string; tax_id?: string };
  debtor: { name: string; account: string; tax_id: string };
  references?: Record<string, string>;
  callback_url?: string;
};

/** The payout resource: the body of every payout answer and of every callback. */
export type PayoutResource = {
  id: string;
  idempotency_key: string;
  rail: Rail;
  amount: Money;
  status: PayoutStatus;
  reason_code: ReasonCode | null;
  reason: string | null;
  reference: string | null;
  created_at: string;
  settled_at: string | null;
};

export function isTerminal(status: PayoutStatus): boolean {
  return status === 'ACSC' || status === 'RJCT';
}
