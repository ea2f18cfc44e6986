// Check-digit rules of the identifiers QR codes and payers carry (decoder and payout both check them).
// Inputs are the bare characters (no punctuation); every function returns false for input of the
// wrong shape instead of throwing.

function isDigits(value: string, length: number): boolean {
  if (value.length !== length) return false;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function mod11Digit(sum: number): number {
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Brazilian CPF: 11 digits, two mod-11 check digits; all-equal digits are not a CPF. */
export function isValidCpf(value: string): boolean {
  if (!isDigits(value, 11) || /^(\d)\1{10}$/.test(value)) return false;
  for (let checkAt = 9; checkAt <= 10; checkAt++) {
    let sum = 0;
    for (let i = 0; i < checkAt; i++) sum += (value.charCodeAt(i) - 48) * (checkAt + 1 - i);
    if (mod11Digit(sum) !== value.charCodeAt(checkAt) - 48) return false;
  }
  return true;
}

const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/**
 * Brazilian CNPJ: 12 base characters (digits, or upper-case letters in the alphanumeric CNPJ,
 * valued as their ASCII code minus 48) and two mod-11 check digits.
 */
export function isValidCnpj(value: string): boolean {
  if (value.length !== 14 || !/^[0-9A-Z]{12}[0-9]{2}$/.test(value) || /^(\d)\1{13}$/.test(value))
    return false;
  for (let checkAt = 12; checkAt <= 13; checkAt++) {
    let sum = 0;
    const offset = 13 - checkAt; // first digit uses weights from 5, the second from 6
    for (let i = 0; i < checkAt; i++)
      sum += (value.charCodeAt(i) - 48) * (CNPJ_WEIGHTS[i + offset] as number);
    if (mod11Digit(sum) !== value.charCodeAt(checkAt) - 48) return false;
  }
  return true;
}

const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/** Argentine CUIT/CUIL: 11 digits, mod-11 check digit with weights 5,4,3,2,7,6,5,4,3,2. */
export function isValidCuit(value: string): boolean {
  if (!isDigits(value, 11)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (value.charCodeAt(i) - 48) * (CUIT_WEIGHTS[i] as number);
  const check = 11 - (sum % 11);
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === value.charCodeAt(10) - 48;
}

const CBU_BLOCK1_WEIGHTS = [7, 1, 3, 9, 7, 1, 3];
const CBU_BLOCK2_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3];

function cbuBlockValid(value: string, start: number, weights: readonly number[]): boolean {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (value.charCodeAt(start + i) - 48) * (weights[i] as number);
  return (10 - (sum % 10)) % 10 === value.charCodeAt(start + weights.length) - 48;
}

/**
 * Argentine CBU or CVU: 22 digits in two blocks, each closed by a check digit (entity + branch with
 * weights 7,1,3,9,7,1,3; account with 3,9,7,1,… ; research qr-schemes.md §3).
 */
export function isValidCbuCvu(value: string): boolean {
  return (
    isDigits(value, 22) &&
    cbuBlockValid(value, 0, CBU_BLOCK1_WEIGHTS) &&
    cbuBlockValid(value, 8, CBU_BLOCK2_WEIGHTS)
  );
}

/** Keeps only the digits of a formatted identifier (20-12345678-6 → 20123456786). */
export function digitsOnly(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 48 && code <= 57) out += value[i];
  }
  return out;
}

const RUC_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/** Peruvian RUC: 11 digits, mod-11 check digit with weights 5,4,3,2,7,6,5,4,3,2 (10 → 0, 11 → 1). */
export function isValidRuc(value: string): boolean {
  if (!isDigits(value, 11)) return false;
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
  if (nit.length < 1 || nit.length > NIT_WEIGHTS.length || !isDigits(nit, nit.length)) return false;
  if (!isDigits(dv, 1)) return false;
  let sum = 0;
  for (let i = 0; i < nit.length; i++) {
    sum += (nit.charCodeAt(nit.length - 1 - i) - 48) * (NIT_WEIGHTS[i] as number);
  }
  const rest = sum % 11;
  return (rest < 2 ? rest : 11 - rest) === dv.charCodeAt(0) - 48;
}
