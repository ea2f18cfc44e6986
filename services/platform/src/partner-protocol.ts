// The partner payout protocol on the wire (docs/partner-protocol.md): the one set of types that
// payout's rail adapters and the partner simulator both speak, and the one parser of a payout
// resource. Amounts are strings of integer minor units; statuses are ISO 20022 pacs.002
// transaction statuses. What a status means for a transaction is payout's alone (its rail
// adapters); this module only says what is on the wire.

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

/** The one currency each rail settles in (a domestic instant-payment rail moves its own money only). */
export const RAIL_CURRENCY: Readonly<Record<RailName, string>> = {
  pix: 'BRL',
  'transferencias-3.0': 'ARS',
  'bre-b': 'COP',
  'cce-inmediatas': 'PEN',
  'bolivia-qr-interoperable': 'BOB',
};

/** The country of each rail: a payer whose document it issued is a resident (docs/payer-identity.md). */
export const RAIL_COUNTRY: Readonly<Record<RailName, string>> = {
  pix: 'BR',
  'transferencias-3.0': 'AR',
  'bre-b': 'CO',
  'cce-inmediatas': 'PE',
  'bolivia-qr-interoperable': 'BO',
};

/** PDNG pending, ACSP accepted (settlement in process), ACSC settled, RJCT rejected. */
export const PARTNER_STATUSES = ['PDNG', 'ACSP', 'ACSC', 'RJCT'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

export type WireMoney = { currency: string; amount_minor: string };

/**
 * The payer as the rail's originator (docs/payer-identity.md "Partner"): resident only when the
 * rail's country issued their document; `document.type` is payout's payer id type or `undeclared`.
 */
export const RESIDENCIES = ['resident', 'non_resident'] as const;
export const ORIGINATOR_DOCUMENT_TYPES = ['tax_id', 'national_id', 'passport', 'undeclared'] as const;

export type Originator = {
  name: string;
  account: string;
  residency: (typeof RESIDENCIES)[number];
  /** issuing_country null: undeclared (then type is `undeclared` too). */
  document: {
    type: (typeof ORIGINATOR_DOCUMENT_TYPES)[number];
    number: string;
    issuing_country: string | null;
  };
};

/** Body of POST /v1/payouts. */
export type SubmitPayoutBody = {
  rail: RailName;
  amount: WireMoney;
  creditor: { name: string; account: string; account_type: string; tax_id?: string };
  debtor: Originator;
  references?: Record<string, string>;
  callback_url?: string;
};

/** The payout resource: every payout answer and every callback body. */
export type PayoutResource = {
  id: string;
  idempotency_key: string;
  rail: string;
  amount: WireMoney;
  status: PartnerStatus;
  /** ISO 20022 ExternalStatusReason1Code of a rejection. */
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
 * The payout resource of a partner answer or callback body, or undefined when the body is not
 * one: an answer is then treated as unknown (never as a rejection), since money may have moved.
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
