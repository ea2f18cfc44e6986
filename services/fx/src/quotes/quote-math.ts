// The price of a quote, in exact integer arithmetic (docs/architecture.md "Money and ids"). The
// merchant receives exactly `target`; the payer pays the smallest amount of source minor units that
// is worth at least that at the quoted rate, so rounding never shortchanges the merchant. The fee
// is on top of it.
import { ceilDiv, type Decimal, decimal, multiply, normalize, pow10 } from '../decimal/decimal';

const BPS = 10_000;

export type QuoteTerms = {
  /** What the merchant receives, in target minor units (> 0). */
  readonly targetMinor: bigint;
  /** ISO 4217 minor-unit digits of the target currency. */
  readonly targetDigits: number;
  /** ISO 4217 minor-unit digits of the source currency. */
  readonly sourceDigits: number;
  /** Mid rate: target units per source unit. */
  readonly mid: Decimal;
  /** Spread below the mid, 0 to 9999 basis points. */
  readonly spreadBps: number;
  /** Fee on the source amount, 0 to 10000 basis points. */
  readonly feeBps: number;
};

export type QuotePrice = {
  /** The quoted rate: mid × (1 − spread), target units per source unit. */
  readonly rate: Decimal;
  /** What the payer pays for the conversion, in source minor units. */
  readonly sourceMinor: bigint;
  /** The fee on top, in source minor units. */
  readonly feeMinor: bigint;
};

function requireBps(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be an integer from 0 to ${max}, got ${value}`);
  }
}

/** mid × (10000 − spreadBps) / 10000, exact: the payer gets fewer target units per source unit. */
export function applySpread(mid: Decimal, spreadBps: number): Decimal {
  requireBps('spreadBps', spreadBps, BPS - 1);
  return normalize(multiply(mid, decimal(BigInt(BPS - spreadBps), 4)));
}

/**
 * The smallest source amount (minor units) worth at least `targetMinor` at `rate`:
 * sourceMinor / 10^sourceDigits × rate >= targetMinor / 10^targetDigits, so
 * sourceMinor = ceil(targetMinor × 10^sourceDigits × 10^rate.scale / (rate.units × 10^targetDigits)).
 */
export function sourceMinorFor(
  targetMinor: bigint,
  rate: Decimal,
  sourceDigits: number,
  targetDigits: number,
): bigint {
  if (targetMinor <= 0n) throw new RangeError('targetMinor must be positive');
  if (rate.units <= 0n) throw new RangeError('rate must be positive');
  const numerator = targetMinor * pow10(sourceDigits + rate.scale);
  const denominator = rate.units * pow10(targetDigits);
  return ceilDiv(numerator, denominator);
}

/** The fee in source minor units, rounded up (a fee is never rounded in the payer's favour). */
export function feeMinorFor(sourceMinor: bigint, feeBps: number): bigint {
  requireBps('feeBps', feeBps, BPS);
  return ceilDiv(sourceMinor * BigInt(feeBps), BigInt(BPS));
}

export function priceQuote(terms: QuoteTerms): QuotePrice {
  const rate = applySpread(terms.mid, terms.spreadBps);
  const sourceMinor = sourceMinorFor(terms.targetMinor, rate, terms.sourceDigits, terms.targetDigits);
  return { rate, sourceMinor, feeMinor: feeMinorFor(sourceMinor, terms.feeBps) };
}
