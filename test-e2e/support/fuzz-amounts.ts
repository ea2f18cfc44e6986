// What the fuzz stage (docs/testing.md "Fuzz") compares paid amounts with: a decimal as written,
// turned into integer minor units exactly (no double in between), and the amount literals of an
// answer read from its source text.

/** A JSON number literal: the only text JSON reads as a number. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Minor-unit digits of every currency we pay in (docs/qr-schemes.md "Countries and currencies"). */
export const MINOR_DIGITS = 2;

/** Beyond this many digits a value is above int64 minor units: no payment can be of it. */
const MAX_MINOR_DIGITS = 19;

/**
 * The positive whole number of minor units a JSON number literal stands for, exactly (`12.5`,
 * `12.50`, `1.25e1` and `1250e-2` are all 1250), or undefined when it stands for none: not a JSON
 * number, zero or negative, a fraction of a minor unit, or too large for any payment.
 */
export function exactMinorUnits(literal: string, digits = MINOR_DIGITS): bigint | undefined {
  if (!JSON_NUMBER.test(literal) || literal.startsWith('-')) return undefined;
  const [mantissa = '', exponent = '0'] = literal.toLowerCase().split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  const significant = `${whole}${fraction}`.replace(/^0+/, '');
  if (significant === '') return undefined;
  const trimmed = significant.replace(/0+$/, '');
  // value × 10^digits = trimmed × 10^scale
  const scale = Number(exponent) - fraction.length + digits + (significant.length - trimmed.length);
  if (scale < 0 || trimmed.length + scale > MAX_MINOR_DIGITS) return undefined;
  return BigInt(trimmed) * 10n ** BigInt(scale);
}

/**
 * Tag 54 as docs/qr-schemes.md "EMVCo TLV" defines it: at most 13 characters, digits with an
 * optional "." and at most two decimals, leading zeros allowed. Its minor units, or undefined when it is not such a value
 * or is zero (the payer enters the amount).
 */
export function qrAmountMinorUnits(value: string): bigint | undefined {
  if (value.length === 0 || value.length > 13 || !/^\d*(?:\.\d{0,2})?$/.test(value) || !/\d/.test(value))
    return undefined;
  const [whole = '', fraction = ''] = value.split('.');
  // Leading zeros are part of tag 54's format (`00012.30` is 12.30) but not of a JSON number.
  const digits = whole.replace(/^0+(?=\d)/, '');
  return exactMinorUnits(`${digits === '' ? '0' : digits}${fraction === '' ? '' : `.${fraction}`}`);
}

/**
 * The source text of the `amount` members of `transaction` and `instruction` in a pay answer, read
 * with JSON.parse source text access, so no double rounds them before they are compared.
 */
export function answerAmountLiterals(text: string): { transaction?: string; instruction?: string } {
  const sources = new WeakMap<object, string>();
  const root = JSON.parse(text, function (this: object, key, value, context?: { source?: string }) {
    if (key === 'amount' && typeof value === 'number' && context?.source !== undefined)
      sources.set(this, context.source);
    return value;
  }) as { transaction?: object; instruction?: object };
  return {
    transaction: root.transaction ? sources.get(root.transaction) : undefined,
    instruction: root.instruction ? sources.get(root.instruction) : undefined,
  };
}
