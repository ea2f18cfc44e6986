// Formats of the keys and tokens the rails route on (docs/qr-schemes.md "Pix (BR)", "CO: Bre-B and
// EMVCo", "PE: Yape and CCE").
import { isValidCnpj, isValidCpf } from '@qr-payout/platform/checks';

export type PixKeyKind = 'cpf' | 'cnpj' | 'phone' | 'email' | 'evp' | 'unknown';

export interface KeyCheck<K extends string> {
  readonly kind: K;
  /** Whether the key passes its format and check-digit rules. */
  readonly valid: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// DICT phone keys are Brazilian mobiles: +55, a two-digit area code, then 9 and eight digits.
const BR_MOBILE = /^\+55[1-9]{2}9\d{8}$/;

/** Pix key type (DICT) from its format: CPF, CNPJ, +55 phone, e-mail (≤77), random key (UUID). */
export function classifyPixKey(key: string): KeyCheck<PixKeyKind> {
  if (/^\d{11}$/.test(key)) return { kind: 'cpf', valid: isValidCpf(key) };
  if (key.length === 14 && /^[0-9A-Z]{12}\d{2}$/.test(key)) return { kind: 'cnpj', valid: isValidCnpj(key) };
  if (key.startsWith('+')) return { kind: 'phone', valid: BR_MOBILE.test(key) };
  if (key.includes('@')) return { kind: 'email', valid: key.length <= 77 && EMAIL.test(key) };
  if (UUID.test(key)) return { kind: 'evp', valid: true };
  return { kind: 'unknown', valid: false };
}

export type BrebKeyKind = 'document' | 'mobile' | 'email' | 'alias' | 'merchant_code';

/** Bre-B key type by the sub-id of the CO.COM.<network>.LLA template. */
export const BREB_KEY_SUB_IDS: ReadonlyArray<readonly [number, BrebKeyKind]> = [
  [1, 'document'],
  [2, 'mobile'],
  [3, 'email'],
  [4, 'alias'],
  [5, 'merchant_code'],
];

/** Format of a Bre-B key of a given type (Colombian mobile: 10 digits starting 3, or +57 before). */
export function isValidBrebKey(kind: BrebKeyKind, key: string): boolean {
  switch (kind) {
    case 'document':
      return /^\d{5,15}$/.test(key);
    case 'mobile':
      return /^(\+57)?3\d{9}$/.test(key);
    case 'email':
      return key.length <= 92 && EMAIL.test(key);
    case 'alias':
      return /^@[A-Za-z0-9._-]{2,20}$/.test(key);
    case 'merchant_code':
      return /^\d{10}$/.test(key);
  }
}

/** Yape's opaque token in tag 39: 32 hex characters, or the older 44-character base64. */
export function isYapeToken(token: string): boolean {
  return /^[0-9a-f]{32}$/i.test(token) || /^[A-Za-z0-9+/]{43}=$/.test(token);
}
