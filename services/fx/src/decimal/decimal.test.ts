import fc from 'fast-check';
import {
  ceilDiv,
  compare,
  type Decimal,
  decimal,
  divide,
  formatDecimal,
  multiply,
  parseDecimal,
  pow10,
} from './decimal';

describe('parseDecimal / formatDecimal', () => {
  it.each([
    ['5.45', 545n, 2, '5.45'],
    ['1015.5', 10155n, 1, '1015.5'],
    ['0.000246', 246n, 6, '0.000246'],
    ['5.4200', 54200n, 4, '5.42'],
    ['3.0', 30n, 1, '3'],
    ['-0.5', -5n, 1, '-0.5'],
    ['0', 0n, 0, '0'],
  ])('%s has units %s at scale %s and prints as %s', (text, units, scale, printed) => {
    const value = parseDecimal(text);
    expect(value).toEqual({ units, scale });
    expect(formatDecimal(value)).toBe(printed);
  });

  it.each(['', '5.', '.5', '1e3', '5,45', '+1', ' 1', 'NaN'])('refuses %j', (text) => {
    expect(() => parseDecimal(text)).toThrow(SyntaxError);
  });

  it('round-trips any decimal through its printed form', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.nat({ max: 30 }), (units, scale) => {
        const value = decimal(units, scale);
        expect(compare(parseDecimal(formatDecimal(value)), value)).toBe(0);
      }),
    );
  });
});

describe('multiply and compare', () => {
  it('multiplies exactly', () => {
    expect(formatDecimal(multiply(parseDecimal('5.45'), parseDecimal('0.995')))).toBe('5.42275');
    expect(formatDecimal(multiply(parseDecimal('0.1'), parseDecimal('0.2')))).toBe('0.02');
  });

  it('compares across scales', () => {
    expect(compare(parseDecimal('1.50'), parseDecimal('1.5'))).toBe(0);
    expect(compare(parseDecimal('0.999'), parseDecimal('1'))).toBe(-1);
    expect(compare(parseDecimal('10'), parseDecimal('9.99999'))).toBe(1);
  });
});

describe('ceilDiv', () => {
  it.each([
    [0n, 3n, 0n],
    [1n, 3n, 1n],
    [3n, 3n, 1n],
    [4n, 3n, 2n],
    [100000n, 307n, 326n],
  ])('ceil(%s / %s) = %s', (n, d, expected) => {
    expect(ceilDiv(n, d)).toBe(expected);
  });
});

describe('divide', () => {
  it.each([
    ['5.45', '1', 12, '5.45'],
    ['1', '4', 12, '0.25'],
    ['1', '3', 5, '0.33333'],
    ['2', '3', 5, '0.66667'],
    ['1', '4050', 12, '0.000246913580247'],
    ['5.45', '0.92', 12, '5.92391304348'],
    ['1180', '6.96', 12, '169.540229885'],
    // half-to-even at the last kept digit
    ['0.125', '1', 2, '0.12'],
    ['0.135', '1', 2, '0.14'],
    // rounding in the whole part
    ['123456', '1', 3, '123000'],
    ['999.6', '1', 3, '1000'],
  ])('%s / %s to %s significant digits = %s', (a, b, digits, expected) => {
    expect(formatDecimal(divide(parseDecimal(a), parseDecimal(b), digits))).toBe(expected);
  });

  // The result is within half a unit of its last significant place of the true quotient.
  it('rounds to the nearest value with the asked significant digits', () => {
    const positive = fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.nat({ max: 12 }))
      .map(([units, scale]) => decimal(units, scale));
    fc.assert(
      fc.property(positive, positive, fc.integer({ min: 1, max: 20 }), (a, b, digits) => {
        const q = divide(a, b, digits);
        expect(significantDigits(q)).toBeLessThanOrEqual(digits);
        // Work in integers: A/B is the true quotient, Q/10^q.scale the result.
        const A = a.units * pow10(b.scale);
        const B = b.units * pow10(a.scale);
        const exponent = floorLog10(A, B); // 10^e <= A/B < 10^(e+1)
        const lastPlace = exponent - digits + 1; // the place value of the last significant digit
        // 2 * |Q/10^s - A/B| <= 10^lastPlace, cross-multiplied to stay in integers
        const s = q.scale;
        const error = abs(q.units * B - A * pow10(s)) * 2n;
        if (lastPlace >= 0) expect(error <= B * pow10(s) * pow10(lastPlace)).toBe(true);
        else expect(error * pow10(-lastPlace) <= B * pow10(s)).toBe(true);
      }),
    );
  });
});

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

function significantDigits(value: Decimal): number {
  return abs(value.units).toString().replace(/0+$/, '').length;
}

/** floor(log10(n / d)) for positive integers. */
function floorLog10(n: bigint, d: bigint): number {
  let e = n.toString().length - d.toString().length;
  const at = (k: number) => (k >= 0 ? n >= d * pow10(k) : n * pow10(-k) >= d);
  while (!at(e)) e -= 1;
  while (at(e + 1)) e += 1;
  return e;
}
