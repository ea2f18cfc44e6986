import fc from 'fast-check';
import { type Decimal, decimal, formatDecimal, parseDecimal, pow10 } from '../decimal/decimal';
import { applySpread, feeMinorFor, priceQuote, sourceMinorFor } from './quote-math';

// ISO 4217 minor-unit digits (the ISO 4217 list, "Minor unit" column) of the currencies below:
// JPY, CLP and PYG have 0; KWD and BHD have 3; USD, BRL, COP and ARS have 2.
const ISO_4217_DIGITS: Record<string, number> = {
  ARS: 2,
  BHD: 3,
  BRL: 2,
  CLP: 0,
  COP: 2,
  JPY: 0,
  KWD: 3,
  PYG: 0,
  USD: 2,
};

describe('priceQuote rounding, by minor units (0, 2 and 3 digits)', () => {
  // source, target, mid, spread bps, target minor → rate, source minor (worked out by hand:
  // source = ceil(target / rate) in source minor units).
  it.each([
    // 2 → 0: $6.66 × 150.25 = 1000.665 JPY ≥ 1000; $6.65 would give 999.16
    ['USD', 'JPY', '150.25', 0, 1000n, '150.25', 666n],
    ['USD', 'CLP', '940.5', 50, 10_000n, '935.7975', 1069n],
    ['USD', 'PYG', '7300', 50, 50_000n, '7263.5', 689n],
    // 0 → 2: 1516 JPY × 0.0066 = 10.0056 USD ≥ 10.00
    ['JPY', 'USD', '0.0066', 0, 1000n, '0.0066', 1516n],
    // 2 → 3: $3.26 × 0.307 = 1.00082 KWD ≥ 1.000
    ['USD', 'KWD', '0.307', 0, 1000n, '0.307', 326n],
    // 3 → 2: 30.924 KWD × 3.23375 = 100.000485 USD ≥ 100.00
    ['KWD', 'USD', '3.25', 50, 10_000n, '3.23375', 30_924n],
    ['BHD', 'BRL', '14.45', 100, 12_345n, '14.3055', 8630n],
    // 3 → 0 and 0 → 3: the smallest amounts still round up to a whole minor unit
    ['KWD', 'JPY', '489.5', 25, 1n, '488.27625', 3n],
    ['JPY', 'KWD', '0.002043', 0, 1n, '0.002043', 1n],
    // 2 → 2: an exact conversion is not rounded up
    ['USD', 'BRL', '5.45', 0, 545n, '5.45', 100n],
    ['USD', 'COP', '4050', 50, 1_000_000n, '4029.75', 249n],
    ['BRL', 'ARS', '216.513761468', 50, 123_456n, '215.43119266066', 574n],
  ])(
    '%s → %s at mid %s, spread %s bps, target %s: rate %s, source %s',
    (source, target, mid, spreadBps, targetMinor, rate, sourceMinor) => {
      const price = priceQuote({
        targetMinor,
        targetDigits: digitsOf(target),
        sourceDigits: digitsOf(source),
        mid: parseDecimal(mid),
        spreadBps,
        feeBps: 0,
      });
      expect({
        rate: formatDecimal(price.rate),
        sourceMinor: price.sourceMinor,
        feeMinor: price.feeMinor,
      }).toEqual({ rate, sourceMinor, feeMinor: 0n });
    },
  );
});

describe('feeMinorFor', () => {
  it.each([
    [249n, 0, 0n],
    [249n, 100, 3n], // 2.49 rounds up to 3
    [10_000n, 25, 25n], // exact
    [1n, 1, 1n], // any fee on a positive amount is at least one minor unit
    [1069n, 10_000, 1069n],
  ])('source %s at %s bps → fee %s', (sourceMinor, feeBps, fee) => {
    expect(feeMinorFor(sourceMinor, feeBps)).toBe(fee);
  });

  it('refuses a fee outside 0..10000 bps', () => {
    expect(() => feeMinorFor(100n, 10_001)).toThrow(RangeError);
    expect(() => feeMinorFor(100n, -1)).toThrow(RangeError);
  });
});

describe('applySpread', () => {
  it('lowers the mid by the spread, exactly', () => {
    expect(formatDecimal(applySpread(parseDecimal('5.45'), 50))).toBe('5.42275');
    expect(formatDecimal(applySpread(parseDecimal('5.45'), 0))).toBe('5.45');
    expect(formatDecimal(applySpread(parseDecimal('1'), 9999))).toBe('0.0001');
  });

  it('refuses a spread outside 0..9999 bps', () => {
    expect(() => applySpread(parseDecimal('1'), 10_000)).toThrow(RangeError);
    expect(() => applySpread(parseDecimal('1'), 1.5)).toThrow(RangeError);
  });
});

describe('sourceMinorFor', () => {
  it('refuses a non-positive target or rate', () => {
    expect(() => sourceMinorFor(0n, parseDecimal('1'), 2, 2)).toThrow(RangeError);
    expect(() => sourceMinorFor(1n, parseDecimal('0'), 2, 2)).toThrow(RangeError);
  });
});

describe('quote invariant (property)', () => {
  const digits = fc.constantFrom(0, 2, 3);
  const positiveDecimal = fc
    .tuple(fc.bigInt({ min: 1n, max: 10n ** 16n }), fc.nat({ max: 12 }))
    .map(([units, scale]) => decimal(units, scale));

  // At the quoted rate the payer's source amount is worth at least the merchant's target, and one
  // source minor unit less would not be: source is the minimal covering amount.
  it('source × rate ≥ target, and (source − 1) × rate < target', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        digits,
        digits,
        positiveDecimal,
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 10_000 }),
        (targetMinor, sourceDigits, targetDigits, mid, spreadBps, feeBps) => {
          const { rate, sourceMinor, feeMinor } = priceQuote({
            targetMinor,
            targetDigits,
            sourceDigits,
            mid,
            spreadBps,
            feeBps,
          });
          expect(sourceMinor).toBeGreaterThan(0n);
          expect(covers(sourceMinor, targetMinor, rate, sourceDigits, targetDigits)).toBe(true);
          expect(covers(sourceMinor - 1n, targetMinor, rate, sourceDigits, targetDigits)).toBe(false);
          // rate = mid × (1 − spread) exactly: rate × 10000 = mid × (10000 − spread)
          expect(rate.units * 10_000n * pow10(mid.scale)).toBe(
            mid.units * BigInt(10_000 - spreadBps) * pow10(rate.scale),
          );
          // the fee is the smallest whole minor-unit amount ≥ source × fee bps
          expect(feeMinor * 10_000n).toBeGreaterThanOrEqual(sourceMinor * BigInt(feeBps));
          expect((feeMinor - 1n) * 10_000n).toBeLessThan(sourceMinor * BigInt(feeBps));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

function digitsOf(code: string): number {
  const digits = ISO_4217_DIGITS[code];
  if (digits === undefined) throw new Error(`no ISO 4217 digits for ${code} in the test table`);
  return digits;
}

// Whether sourceMinor / 10^sourceDigits × rate ≥ targetMinor / 10^targetDigits, both sides
// multiplied by 10^(sourceDigits + targetDigits + rate.scale) so the comparison stays in integers.
function covers(
  sourceMinor: bigint,
  targetMinor: bigint,
  rate: Decimal,
  sourceDigits: number,
  targetDigits: number,
) {
  return sourceMinor * rate.units * pow10(targetDigits) >= targetMinor * pow10(sourceDigits + rate.scale);
}
