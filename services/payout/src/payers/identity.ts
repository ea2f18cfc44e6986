// The payer's document from payer_tax_id, payer_country and payer_id_type (docs/payer-identity.md
// "Rules"). Pure: the caller turns a refusal into a ValidationError naming its field.
import {
  isPayerIdType,
  PAYER_COUNTRY_PATTERN,
  PAYER_ID_TYPES,
  type PayerIdType,
} from '@qr-payout/platform/payer-fields';
import { isIsoCountry } from './countries';
import { type DocumentRule, documentRule, documentRulesOf } from './documents';

/** The payer's identifier as it is stored and sent to the partner. */
export type PayerDocument = {
  /** Normalized by the document's rule; as written (trimmed) when no rule applies. */
  readonly number: string;
  /** null: not declared (neither type nor a country whose formats it matched). */
  readonly idType: PayerIdType | null;
  /** ISO 3166-1 alpha-2 of the issuing country; null when not declared. */
  readonly country: string | null;
};

export type PayerDocumentInput = {
  /** payer_tax_id, trimmed, already checked for presence, length and control characters. */
  readonly id: string;
  readonly country: string | undefined;
  readonly idType: string | undefined;
};

export type DocumentField = 'payer_tax_id' | 'payer_country' | 'payer_id_type';
export type DocumentResult =
  | { ok: true; document: PayerDocument }
  | { ok: false; field: DocumentField; message: string };

const refuse = (field: DocumentField, message: string): DocumentResult => ({ ok: false, field, message });

type Fit = { readonly rule: DocumentRule; readonly normalized: string };

/**
 * The document of a country without a declared type: the one document the id fits. Fitting two
 * documents with different numbers (a bare Colombian NIT is also a CC's shape) is refused rather
 * than guessed: a guess would send the partner a wrong document type.
 */
function inferred(id: string, country: string): DocumentResult {
  const rules = documentRulesOf(country);
  // A country we have no rules for: kept as that country's identifier, unchecked.
  if (rules.length === 0) return { ok: true, document: { number: id, idType: null, country } };
  const checks = rules.map((rule) => ({ rule, check: rule.check(id) }));
  const fits: Fit[] = checks.flatMap(({ rule, check }) =>
    check.ok ? [{ rule, normalized: check.normalized }] : [],
  );
  // A document carrying the number of another that fits too is that other one (a CIN is its CPF).
  const distinct = fits.filter(
    ({ rule }) => rule.sameNumberAs === undefined || !fits.some((f) => f.rule.idType === rule.sameNumberAs),
  );
  const [only] = distinct;
  if (only !== undefined && distinct.length === 1) {
    return { ok: true, document: { number: only.normalized, idType: only.rule.idType, country } };
  }
  if (distinct.length > 1) {
    const choices = distinct.map(({ rule }) => `${rule.idType} for a ${rule.name}`).join(' or ');
    const names = distinct.map(({ rule }) => rule.name).join(' or ');
    return refuse(
      'payer_id_type',
      `payer_id_type is required: payer_tax_id could be a ${names} of ${country}; send payer_id_type ${choices}`,
    );
  }
  // It has a document's shape and fails its check digits: a mistyped id, not another document.
  for (const { check } of checks) {
    if (!check.ok && check.recognized) return refuse('payer_tax_id', `payer_tax_id ${check.problem}`);
  }
  const names = rules.map((r) => r.name).join(', ');
  return refuse(
    'payer_tax_id',
    `payer_tax_id matches no document of ${country} (${names}); for a passport send payer_id_type passport`,
  );
}

// Codes people write for a country whose ISO 3166-1 code is another one: the refusal names it.
const COMMON_MISTAKES: Record<string, string> = { UK: 'GB (the United Kingdom)', EL: 'GR (Greece)' };

/** Why a payer_country is refused: not written as a code, or a code ISO never assigned. */
function countryProblem(country: string): string {
  if (!new RegExp(PAYER_COUNTRY_PATTERN).test(country))
    return 'payer_country must be an ISO 3166-1 alpha-2 country code in upper case (AR, US, ...)';
  const meant = COMMON_MISTAKES[country];
  return meant
    ? `payer_country ${country} is not an ISO 3166-1 country code; use ${meant}`
    : `payer_country ${country} is not an assigned ISO 3166-1 alpha-2 country code (reserved and user-assigned codes such as EU, UK, XK, ZZ are not countries)`;
}

export function resolvePayerDocument(input: PayerDocumentInput): DocumentResult {
  const { id, country, idType } = input;
  if (country !== undefined && !isIsoCountry(country))
    return refuse('payer_country', countryProblem(country));
  if (idType !== undefined && !isPayerIdType(idType)) {
    return refuse('payer_id_type', `payer_id_type must be one of ${PAYER_ID_TYPES.join(', ')}`);
  }
  // A document type means nothing without the country that issued it.
  if (idType !== undefined && country === undefined) {
    return refuse(
      'payer_country',
      'payer_country is required with payer_id_type: the country that issued the document',
    );
  }
  // Undeclared: the payer's own identifier, sent as a foreign one (never passed off as local).
  if (country === undefined) return { ok: true, document: { number: id, idType: null, country: null } };
  if (idType === undefined) return inferred(id, country);
  const rule = documentRule(country, idType);
  // A type we have no rule for in that country: that country's document, unchecked.
  if (!rule) return { ok: true, document: { number: id, idType, country } };
  const check = rule.check(id);
  return check.ok
    ? { ok: true, document: { number: check.normalized, idType, country } }
    : refuse('payer_tax_id', `payer_tax_id ${check.problem}`);
}
