import { minorUnitDigits } from '@qr-payout/platform/money';
import { apiError } from '../errors/api-error';

// The table of minor-unit digits and the bigint → JSON conversion live with the one transaction
// presenter in platform; the gateway adds the other direction, for request amounts.
export { fromMinorUnits, minorUnitDigits } from '@qr-payout/platform/money';

// A double holds any decimal of at most 15 significant digits exactly (DBL_DIG): such a decimal
// survives JSON.parse and String() unchanged. A shortest form with more digits (99999999999999.99
// reads back as …98) means digits the client sent may be lost, so the amount is refused, never
// rounded. A shorter form that stands for a longer number the client wrote (90071992547409.91 →
// …409.9) is at least 10^13 major units, above every rail's maximum (payout caps limits at 15
// digits of minor units), so payout refuses it as AmountOutOfRange whatever was written.
const MAX_EXACT_SIGNIFICANT_DIGITS = 15;
// int64 minor units (common.v1.Money.amount_minor).
const MAX_MINOR = 2n ** 63n - 1n;

/** Significant digits of a number's shortest decimal form (`String(n)`). */
function significantDigits(text: string): number {
  const [mantissa = ''] = text.toLowerCase().split('e');
  return mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;
}

/**
 * A JSON amount as integer minor units; ValidationError when it has more decimals than the currency
 * or when it is beyond exact representation (more than 15 significant digits, or beyond int64).
 */
export function toMinorUnits(amount: number, currency: string, field: string): bigint {
  const digits = minorUnitDigits(currency);
  // The shortest decimal that reads back as this number: what the client wrote in its JSON.
  const text = String(amount);
  const tooPrecise = () =>
    apiError('ValidationError', `${field} has more than ${digits} decimal places for ${currency}`);
  const inexact = () =>
    apiError(
      'ValidationError',
      `${field} cannot be represented exactly: a JSON number holds at most ${MAX_EXACT_SIGNIFICANT_DIGITS} significant digits`,
    );
  if (!Number.isFinite(amount) || amount < 0)
    throw apiError('ValidationError', `${field} must be a positive number`);
  if (significantDigits(text) > MAX_EXACT_SIGNIFICANT_DIGITS) throw inexact();
  if (/e-/i.test(text)) throw tooPrecise();
  // Above 1e21 String() uses an exponent; the number is then an integer, exact as a bigint.
  const [whole = '0', fraction = ''] = /e\+/i.test(text) ? [BigInt(amount).toString()] : text.split('.');
  if (fraction.length > digits) throw tooPrecise();
  const minor = BigInt(whole + fraction.padEnd(digits, '0'));
  if (minor > MAX_MINOR) {
    throw apiError(
      'ValidationError',
      `${field} is too large: it must be below 2^63 minor units of ${currency}`,
    );
  }
  return minor;
}
