// Check-digit rules of the tax ids both the decoder (Pix keys, Argentine QR codes) and payout (payer
// documents) check: CPF, CNPJ, CUIT. A rule one service alone needs lives in that service.
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
