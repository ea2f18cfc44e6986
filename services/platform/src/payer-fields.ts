// The payer fields of execute and pay (docs/payer-identity.md "Fields"): their limits and the id
// types, written once. Payout enforces them (its payers/validate-payer.ts and identity.ts, the only
// check); the gateway's OpenAPI document and GET /v1/schemes describe them from these same values.

/** Characters (code points, as JSON Schema counts them) each payer text may have, after trimming. */
export const PAYER_TEXT_MAX_LENGTH = Object.freeze({
  payer_name: 140,
  payer_account: 64,
  // Long enough for any national document or passport number, short enough for partner files.
  payer_tax_id: 64,
} as const);

export type PayerTextField = keyof typeof PAYER_TEXT_MAX_LENGTH;

/** What payer_tax_id may be declared as (payer_id_type). */
export const PAYER_ID_TYPES = ['tax_id', 'national_id', 'passport'] as const;
export type PayerIdType = (typeof PAYER_ID_TYPES)[number];

export function isPayerIdType(value: string): value is PayerIdType {
  return (PAYER_ID_TYPES as readonly string[]).includes(value);
}

/** How payer_country is written: ISO 3166-1 alpha-2, upper case (whether it is assigned is payout's). */
export const PAYER_COUNTRY_PATTERN = '^[A-Z]{2}$';
