// Exact decimal arithmetic on BigInt (docs/architecture.md "Money and ids": never a float for money
// or rates). A Decimal is `units / 10^scale`. Only what fx needs: parse, format, multiply, compare,
// and a division rounded to a number of significant digits (cross rates are not exact quotients).
// A hand-written module rather than decimal.js/big.js: these few operations are short, exact by
// construction, and BigInt interoperates directly with the int64 minor units of the protos.

export type Decimal = {
  /** The digits as an integer. */
  readonly units: bigint;
  /** How many of those digits are after the decimal point (0 or more). */
  readonly scale: number;
};

const DECIMAL_TEXT = /^(-)?(\d+)(?:\.(\d+))?$/;

/** 10^n as a bigint. */
export function pow10(n: number): bigint {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`pow10 needs a non-negative integer, got ${n}`);
  return 10n ** BigInt(n);
}

export function decimal(units: bigint, scale = 0): Decimal {
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`bad decimal scale ${scale}`);
  return Object.freeze({ units, scale });
}

/** Parses plain decimal notation ("5.45", "-0.001", "1015"); no exponents, no separators. */
export function parseDecimal(text: string): Decimal {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) throw new SyntaxError(`not a decimal number: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(`${whole}${fraction}`);
  return decimal(sign ? -units : units, fraction.length);
}

/** The shortest plain notation: trailing fractional zeros dropped ("5.4200" → "5.42", "3.0" → "3"). */
export function formatDecimal(value: Decimal): string {
  const { units, scale } = normalize(value);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The same value with the smallest scale. */
export function normalize(value: Decimal): Decimal {
  let { units, scale } = value;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return decimal(units, scale);
}

/** `value` expressed with exactly `scale` fractional digits (scale must not drop digits). */
function rescale(value: Decimal, scale: number): bigint {
  if (scale < value.scale) throw new RangeError('rescale would lose digits');
  return value.units * pow10(scale - value.scale);
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return decimal(a.units * b.units, a.scale + b.scale);
}

/** -1, 0 or 1 as a is less than, equal to or greater than b. */
export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = rescale(a, scale);
  const y = rescale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isPositive(value: Decimal): boolean {
  return value.units > 0n;
}

/** ceil(numerator / denominator) for a non-negative numerator and a positive denominator. */
export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n || numerator < 0n) throw new RangeError('ceilDiv needs n >= 0 and d > 0');
  return (numerator + denominator - 1n) / denominator;
}

/** Number of digits of a positive integer. */
function digitCount(value: bigint): number {
  return value.toString().length;
}

/**
 * a / b for positive a and b, rounded half-to-even to `significantDigits` significant digits
 * (exact quotients come out exact, e.g. 5.45 / 1 = 5.45).
 */
export function divide(a: Decimal, b: Decimal, significantDigits: number): Decimal {
  if (!isPositive(a) || !isPositive(b)) throw new RangeError('divide needs positive operands');
  if (!Number.isInteger(significantDigits) || significantDigits < 1) {
    throw new RangeError(`bad significant digits ${significantDigits}`);
  }
  // a/b = (a.units * 10^b.scale) / (b.units * 10^a.scale). Pick a result scale so that the
  // integer quotient has at least `significantDigits` digits, then round once.
  const numerator = a.units * pow10(b.scale);
  const denominator = b.units * pow10(a.scale);
  const magnitude = digitCount(numerator) - digitCount(denominator); // quotient has ~magnitude+1 digits
  const scale = Math.max(0, significantDigits - magnitude);
  const scaled = numerator * pow10(scale);
  const quotient = scaled / denominator;
  const remainder = scaled % denominator;
  // The quotient may have one digit too many; round it to `significantDigits` once, using the
  // remainder as sticky bits so there is no double rounding.
  const extra = Math.max(0, digitCount(quotient) - significantDigits);
  const drop = pow10(extra);
  let kept = quotient / drop;
  const dropped = quotient % drop;
  const twice = 2n * (dropped * denominator + remainder); // compare the dropped part with half of drop
  const half = drop * denominator;
  if (twice > half || (twice === half && kept % 2n === 1n)) kept += 1n;
  // A large integer quotient rounds in its whole part: put the dropped places back as zeros.
  const resultScale = scale - extra;
  return resultScale >= 0 ? normalize(decimal(kept, resultScale)) : decimal(kept * pow10(-resultScale), 0);
}
