// The payer document catalogue (docs/payer-identity.md "Documents"): per issuing country and id
// type, how the document is written, checked and normalized. Payout owns it alone; GET /v1/schemes
// publishes it through ListPayerIdentityRules. A country or type not listed here is accepted
// unchecked (identity.ts), since a traveller from anywhere must be able to pay.
import { isValidCnpj, isValidCpf, isValidCuit } from '@qr-payout/platform/checks';
import type { PayerIdType } from '@qr-payout/platform/payer-fields';
import {
  isValidChileanRut,
  isValidColombianNit,
  isValidCurp,
  isValidRuc,
  isValidSpanishDni,
  isValidSpanishNie,
  isValidUruguayanCi,
} from './check-digits';
import { isValidEin, isValidItin, isValidSsn } from './us-tax-ids';

/**
 * ok: the id in its normalized form. Not ok: `recognized` when the id has this document's shape
 * but fails its check digits (or reserved ranges): then it is certainly wrong, not another document.
 */
export type DocumentCheck =
  | { ok: true; normalized: string }
  | { ok: false; recognized: boolean; problem: string };

export type DocumentRule = {
  readonly country: string;
  readonly idType: PayerIdType;
  /** The document's own name (CPF, CUIT/CUIL, passport). */
  readonly name: string;
  /** How it is written, for GET /v1/schemes. */
  readonly format: string;
  readonly check: (raw: string) => DocumentCheck;
  /**
   * The country's document of this type that carries the same number (a Brazilian CIN is numbered
   * by the holder's CPF): an id fitting both is that one document, so inference takes that type
   * instead of calling the id ambiguous (identity.ts).
   */
  readonly sameNumberAs?: PayerIdType;
};

// Separators people type: dots, dashes, slashes, spaces.
const SEPARATORS = /[.\-/\s]/g;

const bare = (raw: string) => raw.replace(SEPARATORS, '').toUpperCase();
const ok = (normalized: string): DocumentCheck => ({ ok: true, normalized });
const badCheck = (problem: string): DocumentCheck => ({ ok: false, recognized: true, problem });
const badShape = (problem: string): DocumentCheck => ({ ok: false, recognized: false, problem });

/** A document whose shape is a regular expression over the bare id and whose checker decides. */
function checked(
  name: string,
  shape: RegExp,
  isValid: (value: string) => boolean,
  shapeProblem: string,
): (raw: string) => DocumentCheck {
  return (raw) => {
    const value = bare(raw);
    if (!shape.test(value)) return badShape(shapeProblem);
    return isValid(value) ? ok(value) : badCheck(`is not a valid ${name}`);
  };
}

/** A document with no check digit: its shape is all there is to check. */
function shaped(
  shape: RegExp,
  shapeProblem: string,
  strip: RegExp = SEPARATORS,
): (raw: string) => DocumentCheck {
  return (raw) => {
    const value = raw.replace(strip, '').toUpperCase();
    return shape.test(value) ? ok(value) : badShape(shapeProblem);
  };
}

function brazilCpfOrCnpj(raw: string): DocumentCheck {
  const value = bare(raw);
  if (/^\d{11}$/.test(value)) return isValidCpf(value) ? ok(value) : badCheck('is not a valid CPF');
  if (/^[0-9A-Z]{12}\d{2}$/.test(value))
    return isValidCnpj(value) ? ok(value) : badCheck('is not a valid CNPJ');
  return badShape('must be a CPF (11 digits) or a CNPJ (14 characters)');
}

function colombiaNit(raw: string): DocumentCheck {
  // Written with its verification digit after a dash (900123456-8), or bare with the digit last
  // (9001234568). Bare, it has the shape of a CC too: inference then refuses it (identity.ts).
  const match = /^(\d{6,10})-?(\d)$/.exec(raw.replace(/[.\s]/g, ''));
  if (!match) return badShape('must be a NIT and its verification digit (900123456-8)');
  return isValidColombianNit(match[1]!, match[2]!)
    ? ok(`${match[1]}${match[2]}`)
    : badCheck('is not a valid NIT (verification digit)');
}

function boliviaCi(raw: string): DocumentCheck {
  const value = raw.trim().toUpperCase();
  // With its complement (1234567-1B), kept as written: the complement tells two CIs apart.
  if (/^\d{5,10}-[0-9A-Z]{1,2}$/.test(value)) return ok(value);
  const digits = value.replace(/[.\s]/g, '');
  return /^\d{5,10}$/.test(digits)
    ? ok(digits)
    : badShape('must be a CI (5 to 10 digits, optional complement such as 1234567-1B)');
}

function usTaxpayerNumber(raw: string): DocumentCheck {
  const value = bare(raw);
  if (!/^\d{9}$/.test(value)) return badShape('must be an SSN, ITIN or EIN (9 digits)');
  return isValidSsn(value) || isValidItin(value) || isValidEin(value)
    ? ok(value)
    : badCheck('is not a valid SSN, ITIN or EIN (a range never assigned)');
}

function spanishDniOrNie(raw: string): DocumentCheck {
  const value = bare(raw);
  if (/^\d{8}[A-Z]$/.test(value))
    return isValidSpanishDni(value) ? ok(value) : badCheck('is not a valid DNI (control letter)');
  if (/^[XYZ]\d{7}[A-Z]$/.test(value))
    return isValidSpanishNie(value) ? ok(value) : badCheck('is not a valid NIE (control letter)');
  return badShape('must be a DNI (8 digits and a letter) or a NIE (X, Y or Z, 7 digits and a letter)');
}

const CPF_CNPJ = 'CPF (11 digits) or CNPJ (14 characters), mod-11 check digits; 123.456.789-09 form allowed';
const RUT = '7 or 8 digits and a check character (0-9 or K), mod 11; 12.345.678-5 form allowed';
const DNI_NIE = 'DNI (8 digits and a control letter) or NIE (X, Y or Z, 7 digits and a control letter)';

/** Issuing country × type: the documents checked. Passports of every country: passportRule. */
export const DOCUMENT_RULES: readonly DocumentRule[] = [
  {
    country: 'AR',
    idType: 'tax_id',
    name: 'CUIT/CUIL',
    format: '11 digits, mod-11 check digit; 20-12345678-6 form allowed',
    check: checked('CUIT/CUIL', /^\d{11}$/, isValidCuit, 'must be a CUIT/CUIL (11 digits)'),
  },
  {
    country: 'AR',
    idType: 'national_id',
    name: 'DNI',
    format: '7 or 8 digits (no check digit)',
    check: shaped(/^\d{7,8}$/, 'must be a DNI (7 or 8 digits)', /[.\s]/g),
  },
  {
    country: 'BO',
    idType: 'tax_id',
    name: 'NIT',
    format: '5 to 13 digits (no check digit)',
    check: shaped(/^\d{5,13}$/, 'must be a NIT (5 to 13 digits)', /[.\s]/g),
  },
  {
    country: 'BO',
    idType: 'national_id',
    name: 'CI',
    format: '5 to 10 digits, optional complement (1234567-1B); no check digit',
    check: boliviaCi,
  },
  { country: 'BR', idType: 'tax_id', name: 'CPF/CNPJ', format: CPF_CNPJ, check: brazilCpfOrCnpj },
  // The Carteira de Identidade Nacional is numbered by the holder's CPF.
  {
    country: 'BR',
    idType: 'national_id',
    name: 'CIN (CPF number)',
    format: 'the CPF: 11 digits, mod-11 check digits',
    check: checked('CPF', /^\d{11}$/, isValidCpf, 'must be the CPF number of the CIN (11 digits)'),
    sameNumberAs: 'tax_id',
  },
  {
    country: 'CL',
    idType: 'tax_id',
    name: 'RUT',
    format: RUT,
    check: checked(
      'RUT',
      /^\d{7,8}[0-9K]$/,
      isValidChileanRut,
      'must be a RUT (7 or 8 digits and a check character)',
    ),
  },
  {
    country: 'CL',
    idType: 'national_id',
    name: 'RUN',
    format: RUT,
    check: checked(
      'RUN',
      /^\d{7,8}[0-9K]$/,
      isValidChileanRut,
      'must be a RUN (7 or 8 digits and a check character)',
    ),
    // A person's RUT is their RUN.
    sameNumberAs: 'tax_id',
  },
  // A person's NIT is their CC with a verification digit appended, so a bare number of 7 to 10
  // digits whose last digit is the DIAN digit of the others reads as both: a different number
  // either way, which inference refuses to guess (docs/payer-identity.md "Rules").
  {
    country: 'CO',
    idType: 'tax_id',
    name: 'NIT',
    format: '6 to 10 digits and a DIAN verification digit, 900123456-8 or 9001234568',
    check: colombiaNit,
  },
  {
    country: 'CO',
    idType: 'national_id',
    name: 'CC',
    format: 'cédula de ciudadanía: 6 to 10 digits (no check digit)',
    check: shaped(/^\d{6,10}$/, 'must be a CC (6 to 10 digits)', /[.\s]/g),
  },
  {
    country: 'ES',
    idType: 'tax_id',
    name: 'NIF',
    format: `NIF of a person: ${DNI_NIE}`,
    check: spanishDniOrNie,
  },
  // A person's NIF is their DNI or NIE.
  {
    country: 'ES',
    idType: 'national_id',
    name: 'DNI/NIE',
    format: DNI_NIE,
    check: spanishDniOrNie,
    sameNumberAs: 'tax_id',
  },
  {
    country: 'MX',
    idType: 'national_id',
    name: 'CURP',
    format: '18 characters, the last a check digit (RENAPO)',
    check: checked('CURP', /^[A-ZÑ0-9]{18}$/, isValidCurp, 'must be a CURP (18 characters)'),
  },
  {
    country: 'PE',
    idType: 'tax_id',
    name: 'RUC',
    format: '11 digits, mod-11 check digit',
    check: checked('RUC', /^\d{11}$/, isValidRuc, 'must be a RUC (11 digits)'),
  },
  {
    country: 'PE',
    idType: 'national_id',
    name: 'DNI',
    format: '8 digits',
    check: shaped(/^\d{8}$/, 'must be a DNI (8 digits)', /[.\s]/g),
  },
  {
    country: 'US',
    idType: 'tax_id',
    name: 'SSN/ITIN/EIN',
    format: '9 digits in ranges the SSA or IRS assigns; 123-45-6789 or 12-3456789 form allowed',
    check: usTaxpayerNumber,
  },
  {
    country: 'UY',
    idType: 'national_id',
    name: 'CI',
    format: '6 or 7 digits and a mod-10 check digit; 1.234.567-2 form allowed',
    check: checked(
      'CI',
      /^\d{7,8}$/,
      isValidUruguayanCi,
      'must be a CI (7 or 8 digits with its check digit)',
    ),
  },
];

/**
 * ICAO Doc 9303 document numbers are upper-case letters and digits (9 in the MRZ field, longer
 * ones continue in the optional data); no check digit of the number itself is printed apart from
 * the MRZ, so the format is all that can be checked.
 */
export const PASSPORT_FORMAT = '5 to 20 letters and digits (ICAO 9303); spaces ignored';

function passportRule(country: string): DocumentRule {
  return {
    country,
    idType: 'passport',
    name: 'passport',
    format: PASSPORT_FORMAT,
    check: shaped(/^[A-Z0-9]{5,20}$/, 'must be a passport number (5 to 20 letters and digits)', /\s/g),
  };
}

/** The rule of a country's document type; undefined when the catalogue has none. */
export function documentRule(country: string, idType: PayerIdType): DocumentRule | undefined {
  if (idType === 'passport') return passportRule(country);
  return DOCUMENT_RULES.find((r) => r.country === country && r.idType === idType);
}

/** The country's documents in catalogue order (tax_id first, as docs/payer-identity.md lists them); no passports. */
export function documentRulesOf(country: string): readonly DocumentRule[] {
  return DOCUMENT_RULES.filter((r) => r.country === country);
}
