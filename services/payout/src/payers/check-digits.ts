// Check-digit rules of the traveller documents payout alone checks (docs/payer-identity.md
// "Documents"); the ones the decoder shares (CPF, CNPJ, CUIT) are in @qr-payout/platform/checks.
// Inputs are bare (no separators, upper case); wrong shapes return false.

/** The digit of a Chilean RUT/RUN body: mod 11 with weights 2..7 from the right; 10 is K. */
export function chileanRutCheck(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (2 + (i % 6));
  const check = 11 - (sum % 11);
  return check === 11 ? '0' : check === 10 ? 'K' : String(check);
}

/** Chilean RUT (tax) / RUN (identity): 7 or 8 digits and a check character (0-9 or K). */
export function isValidChileanRut(value: string): boolean {
  const match = /^(\d{7,8})([0-9K])$/.exec(value);
  return match !== null && chileanRutCheck(match[1]!) === match[2];
}

const UY_CI_WEIGHTS = [2, 9, 8, 7, 6, 3, 4];

/** The check digit of a Uruguayan cédula body (up to 7 digits, zero-padded): mod 10. */
export function uruguayanCiCheck(body: string): string {
  const padded = body.padStart(7, '0');
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(padded[i]) * (UY_CI_WEIGHTS[i] as number);
  return String((10 - (sum % 10)) % 10);
}

/** Uruguayan cédula de identidad: 6 or 7 digits and a check digit. */
export function isValidUruguayanCi(value: string): boolean {
  const match = /^(\d{6,7})(\d)$/.exec(value);
  return match !== null && uruguayanCiCheck(match[1]!) === match[2];
}

// RENAPO's alphabet: a character is worth its position (Ñ sits between N and O).
const CURP_ALPHABET = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';

/** The check digit of the first 17 characters of a CURP: weights 18..2, mod 10. */
export function curpCheck(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CURP_ALPHABET.indexOf(first17[i] as string) * (18 - i);
  return String((10 - (sum % 10)) % 10);
}

// 4 letters, birth date YYMMDD, sex (H, M, or X), state, 3 consonants, homoclave, check digit.
const CURP = /^[A-ZÑ]{4}\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[HMX][A-Z]{2}[A-ZÑ]{3}[0-9A-Z]\d$/;

/** Mexican CURP: 18 characters of a fixed shape, the last a check digit. */
export function isValidCurp(value: string): boolean {
  return CURP.test(value) && curpCheck(value.slice(0, 17)) === value[17];
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** The control letter of a Spanish DNI number (or NIE with X/Y/Z as 0/1/2): number mod 23. */
export function spanishControlLetter(digits: string): string {
  return DNI_LETTERS[Number(digits) % 23] as string;
}

/** Spanish DNI: 8 digits and a control letter. */
export function isValidSpanishDni(value: string): boolean {
  const match = /^(\d{8})([A-Z])$/.exec(value);
  return match !== null && spanishControlLetter(match[1]!) === match[2];
}

/** Spanish NIE (foreigners' number): X, Y or Z, 7 digits and a control letter. */
export function isValidSpanishNie(value: string): boolean {
  const match = /^([XYZ])(\d{7})([A-Z])$/.exec(value);
  if (match === null) return false;
  const prefix = String('XYZ'.indexOf(match[1]!));
  return spanishControlLetter(prefix + match[2]!) === match[3];
}

const RUC_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/** Peruvian RUC: 11 digits, mod-11 check digit with weights 5,4,3,2,7,6,5,4,3,2 (10 → 0, 11 → 1). */
export function isValidRuc(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (value.charCodeAt(i) - 48) * (RUC_WEIGHTS[i] as number);
  const check = (11 - (sum % 11)) % 10;
  return check === value.charCodeAt(10) - 48;
}

// DIAN's weights, applied from the rightmost digit of the NIT leftwards.
const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];

/**
 * Colombian NIT with its verification digit (DV): `nit` is 1 to 15 digits, `dv` one digit. DIAN
 * rule: weighted sum mod 11; a remainder of 0 or 1 is the DV itself, otherwise 11 minus it.
 */
export function isValidColombianNit(nit: string, dv: string): boolean {
  if (nit.length > NIT_WEIGHTS.length || !/^\d+$/.test(nit) || !/^\d$/.test(dv)) return false;
  let sum = 0;
  for (let i = 0; i < nit.length; i++) {
    sum += (nit.charCodeAt(nit.length - 1 - i) - 48) * (NIT_WEIGHTS[i] as number);
  }
  const rest = sum % 11;
  return (rest < 2 ? rest : 11 - rest) === dv.charCodeAt(0) - 48;
}
