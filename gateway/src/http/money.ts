import { minorUnitDigits } from '@qr-payout/platform/money';
import { apiError } from '../errors/api-error';

// The table of minor-unit digits and the bigint → JSON conversion live with the one transaction
// presenter in platform; the gateway adds the other direction, for request amounts.
export { fromMinorUnits, minorUnitDigits } from '@qr-payout/platform/money';

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
