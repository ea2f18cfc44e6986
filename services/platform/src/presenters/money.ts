// Money at the JSON edge (docs/api/resources.md "Money"): inside the system an amount is an
// integer count of ISO 4217 minor units (bigint); the public API shows it as a JSON number with at
// most the currency's minor-unit digits. The one table of those digits and the one conversion.

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

/** ISO 4217 minor-unit digits of `currency` (2 for a currency this table does not list). */
export function minorUnitDigits(currency: string): number {
  return MINOR_UNIT_DIGITS[currency] ?? 2;
}

/** Integer minor units as decimal text in major units (`100000000n` BRL → `1000000.00`), no float. */
export function minorUnitsText(minor: bigint, currency: string): string {
  const digits = minorUnitDigits(currency);
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits);
  return `${negative ? '-' : ''}${whole}${digits > 0 ? `.${fraction}` : ''}`;
}

/**
 * Integer minor units as the JSON number the API shows. Built as a decimal string and parsed, no
 * float arithmetic: `1234n` BRL is the number written `12.34`, exactly as a client's JSON parser
 * reads "12.34".
 */
export function fromMinorUnits(minor: bigint, currency: string): number {
  return Number(minorUnitsText(minor, currency));
}
