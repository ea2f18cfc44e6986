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
  const text = amount.toFixed(Math.min(20, digits + 6));
  const [whole, fraction = ''] = text.split('.');
  if (/[1-9]/.test(fraction.slice(digits))) {
    throw apiError('ValidationError', `${field} has more than ${digits} decimal places for ${currency}`);
  }
  return BigInt(`${whole}${fraction.slice(0, digits)}`);
}

/** Integer minor units as the JSON number the API shows. */
export function fromMinorUnits(minor: bigint, currency: string): number {
  const digits = minorUnitDigits(currency);
  return Number(minor) / 10 ** digits;
}
