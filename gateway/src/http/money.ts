import { apiError } from '../errors/api-error';

// ISO 4217 minor-unit digits of the currencies the service pays or quotes from. The HTTP API
// shows money as JSON numbers with at most these digits (design §2, docs/api-conventions.md).
const MINOR_UNIT_DIGITS: Record<string, number> = {
  ARS: 2,
  BOB: 2,
  BRL: 2,
  CLP: 0,
  COP: 2,
  EUR: 2,
  GBP: 2,
  JPY: 0,
  MXN: 2,
  PEN: 2,
  USD: 2,
  UYU: 2,
};

export function minorUnitDigits(currency: string): number {
  return MINOR_UNIT_DIGITS[currency] ?? 2;
}

/** A JSON amount as integer minor units; ValidationError when it has too many decimals. */
export function toMinorUnits(amount: number, currency: string, field: string): bigint {
  const digits = minorUnitDigits(currency);
  // The shortest decimal that reads back as this number: what the client wrote in its JSON.
  const text = String(amount);
  const tooPrecise = () =>
    apiError('ValidationError', `${field} has more than ${digits} decimal places for ${currency}`);
  if (!Number.isFinite(amount) || amount < 0)
    throw apiError('ValidationError', `${field} must be a positive number`);
  if (/e-/i.test(text)) throw tooPrecise();
  if (/e\+/i.test(text)) return BigInt(amount) * 10n ** BigInt(digits);
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > digits) throw tooPrecise();
  return BigInt(whole + fraction.padEnd(digits, '0'));
}

/** Integer minor units as the JSON number the API shows. */
export function fromMinorUnits(minor: bigint, currency: string): number {
  const digits = minorUnitDigits(currency);
  return Number(minor) / 10 ** digits;
}
