// The Argentine account rules only the decoder checks (the CBU/CVU of a QR code's merchant account).

const CBU_BLOCK1_WEIGHTS = [7, 1, 3, 9, 7, 1, 3];
const CBU_BLOCK2_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3];

function cbuBlockValid(value: string, start: number, weights: readonly number[]): boolean {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (value.charCodeAt(start + i) - 48) * (weights[i] as number);
  return (10 - (sum % 10)) % 10 === value.charCodeAt(start + weights.length) - 48;
}

/**
 * Argentine CBU or CVU: 22 digits in two blocks, each closed by a check digit (entity + branch with
 * weights 7,1,3,9,7,1,3; account with 3,9,7,1,…; docs/qr-schemes.md "AR interoperable and
 * CBU/CVU").
 */
export function isValidCbuCvu(value: string): boolean {
  return (
    /^\d{22}$/.test(value) &&
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
