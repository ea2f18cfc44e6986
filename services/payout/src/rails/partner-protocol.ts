// Payout's side of the partner payout protocol (partner-sim README "Partner protocol"): the wire
// shapes and their parsing. Our own copy on purpose: payout talks to real partners through it too,
// and never imports the simulator. Amounts are strings of integer minor units; statuses are
// ISO 20022 pacs.002 transaction statuses.

export const RAILS = [
  'pix',
  'transferencias-3.0',
  'bre-b',
  'cce-inmediatas',
  'bolivia-qr-interoperable',
] as const;
export type RailName = (typeof RAILS)[number];

export function isRailName(value: string): value is RailName {
  return (RAILS as readonly string[]).includes(value);
}

/** PDNG pending, ACSP accepted (settlement in process), ACSC settled, RJCT rejected. */
export const PARTNER_STATUSES = ['PDNG', 'ACSP', 'ACSC', 'RJCT'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

export type WireMoney = { currency: string; amount_minor: string };

/** Body of POST /v1/payouts. */
export type SubmitPayoutBody = {
  rail: RailName;
  amount: WireMoney;
  creditor: { name: string; account: string; account_type: string; tax_id?: string };
  debtor: { name: string; account: string; tax_id: string };
  references: Record<string, string>;
  callback_url: string;
};

/** The payout resource: every payout answer and every callback body. */
export type PayoutResource = {
  id: string;
  idempotency_key: string;
  rail: string;
  amount: WireMoney;
  status: PartnerStatus;
  reason_code: string | null;
  reason: string | null;
  reference: string | null;
  created_at: string;
  settled_at: string | null;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The payout resource of a partner answer, or undefined when the body is not one: the caller then
 * treats the answer as unknown (never as a rejection), since money may have moved.
 */
export function parsePayoutResource(body: unknown): PayoutResource | undefined {
  if (!isRecord(body)) return undefined;
  const { id, idempotency_key, rail, amount, status, created_at } = body;
  if (typeof id !== 'string' || id === '' || typeof idempotency_key !== 'string') return undefined;
  if (typeof rail !== 'string' || typeof created_at !== 'string') return undefined;
  if (typeof status !== 'string' || !(PARTNER_STATUSES as readonly string[]).includes(status))
    return undefined;
  if (!isRecord(amount) || typeof amount.currency !== 'string' || typeof amount.amount_minor !== 'string')
    return undefined;
  const reasonCode = optionalString(body.reason_code);
  const reason = optionalString(body.reason);
  const reference = optionalString(body.reference);
  const settledAt = optionalString(body.settled_at);
  if (reasonCode === undefined || reason === undefined || reference === undefined || settledAt === undefined)
    return undefined;
  return {
    id,
    idempotency_key,
    rail,
    amount: { currency: amount.currency, amount_minor: amount.amount_minor },
    status: status as PartnerStatus,
    reason_code: reasonCode,
    reason,
    reference,
    created_at,
    settled_at: settledAt,
  };
}
