// Payer tax id formats per country of the rail, as the decoder's scheme catalogue documents them
// for GET /v1/schemes (required_payer_fields): the national identity and taxpayer documents the
// partners ask for. Check digits are verified where the document has one.
import { isValidCnpj, isValidColombianNit, isValidCpf, isValidCuit, isValidRuc } from '@qr-payout/platform';

export type TaxIdCheck = { ok: true; normalized: string } | { ok: false; problem: string };

// Separators people type: dots, dashes, slashes, spaces.
const SEPARATORS = /[.\-/\s]/g;

function brazil(raw: string): TaxIdCheck {
  const bare = raw.replace(SEPARATORS, '').toUpperCase();
  if (/^\d{11}$/.test(bare)) {
    return isValidCpf(bare) ? { ok: true, normalized: bare } : { ok: false, problem: 'is not a valid CPF' };
  }
  if (bare.length === 14) {
    return isValidCnpj(bare) ? { ok: true, normalized: bare } : { ok: false, problem: 'is not a valid CNPJ' };
  }
  return { ok: false, problem: 'must be a CPF (11 digits) or a CNPJ (14 characters)' };
}

function argentina(raw: string): TaxIdCheck {
  const bare = raw.replace(SEPARATORS, '');
  if (/^\d{11}$/.test(bare)) {
    return isValidCuit(bare)
      ? { ok: true, normalized: bare }
      : { ok: false, problem: 'is not a valid CUIT/CUIL' };
  }
  if (/^\d{7,8}$/.test(bare)) return { ok: true, normalized: bare };
  return { ok: false, problem: 'must be a CUIT/CUIL (11 digits) or a DNI (7 or 8 digits)' };
}

function colombia(raw: string): TaxIdCheck {
  // A NIT is written with its verification digit after a dash (900123456-8); a bare number of 6 to
  // 10 digits is a cédula de ciudadanía, which has no check digit.
  const nit = /^([\d.]{9,13})-(\d)$/.exec(raw.trim());
  if (nit) {
    const digits = nit[1]!.replace(/\./g, '');
    if (!/^\d{9}$/.test(digits)) return { ok: false, problem: 'must be a NIT of 9 digits and a check digit' };
    return isValidColombianNit(digits, nit[2]!)
      ? { ok: true, normalized: `${digits}${nit[2]}` }
      : { ok: false, problem: 'is not a valid NIT (check digit)' };
  }
  const bare = raw.replace(SEPARATORS, '');
  if (/^\d{6,10}$/.test(bare)) return { ok: true, normalized: bare };
  return { ok: false, problem: 'must be a CC (6 to 10 digits) or a NIT (900123456-8)' };
}

function peru(raw: string): TaxIdCheck {
  const bare = raw.replace(SEPARATORS, '');
  if (/^\d{8}$/.test(bare)) return { ok: true, normalized: bare };
  if (/^\d{11}$/.test(bare)) {
    return isValidRuc(bare) ? { ok: true, normalized: bare } : { ok: false, problem: 'is not a valid RUC' };
  }
  return { ok: false, problem: 'must be a DNI (8 digits) or a RUC (11 digits)' };
}

function bolivia(raw: string): TaxIdCheck {
  const value = raw.trim().toUpperCase();
  // CI with its complement (1234567-1B), kept as written: the complement tells two CIs apart.
  if (/^\d{5,10}-[0-9A-Z]{1,2}$/.test(value)) return { ok: true, normalized: value };
  const bare = value.replace(SEPARATORS, '');
  if (/^\d{5,13}$/.test(bare)) return { ok: true, normalized: bare };
  return {
    ok: false,
    problem: 'must be a CI (5 to 10 digits, optional complement) or a NIT (up to 13 digits)',
  };
}

const BY_COUNTRY: Readonly<Record<string, (raw: string) => TaxIdCheck>> = {
  BR: brazil,
  AR: argentina,
  CO: colombia,
  PE: peru,
  BO: bolivia,
};

/** Checks a payer tax id against the formats of `country` (ISO 3166-1 alpha-2 of the rail). */
export function checkPayerTaxId(country: string, raw: string): TaxIdCheck {
  const check = BY_COUNTRY[country];
  if (!check) return { ok: false, problem: `cannot be checked for country ${country}` };
  return check(raw);
}
