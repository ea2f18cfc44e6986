import fc from 'fast-check';
import { ApiError } from '../errors/api-error';
import { fromMinorUnits, toMinorUnits } from './money';

describe('money at the JSON edge', () => {
  it('converts JSON amounts to integer minor units by the currency digits', () => {
    expect(toMinorUnits(12.34, 'BRL', 'amount')).toBe(1234n);
    expect(toMinorUnits(0.1, 'PEN', 'amount')).toBe(10n);
    expect(toMinorUnits(5000, 'COP', 'amount')).toBe(500000n);
    expect(toMinorUnits(1500, 'CLP', 'amount')).toBe(1500n);
  });

  it('refuses more decimals than the currency has, naming the field', () => {
    expect(() => toMinorUnits(12.345, 'BRL', 'amount')).toThrow(ApiError);
    expect(() => toMinorUnits(1.5, 'CLP', 'amount')).toThrow(/amount has more than 0 decimal places for CLP/);
  });

  it('refuses amounts a JSON number cannot hold exactly, never rounding them', () => {
    // JSON.parse has already made …99.99 into …99.98: refused, not paid as another amount.
    for (const text of ['99999999999999.99', '12345678901234567', '9007199254740993']) {
      expect(() => toMinorUnits(JSON.parse(text), 'BRL', 'amount')).toThrow(
        /^amount cannot be represented exactly/,
      );
    }
    // Few digits but beyond int64 minor units: refused for its size, not for its digits.
    for (const text of ['1e300', '1e17', '9.3e16']) {
      expect(() => toMinorUnits(JSON.parse(text), 'BRL', 'amount')).toThrow(
        /^amount is too large: it must be below 2\^63 minor units of BRL/,
      );
    }
    expect(toMinorUnits(JSON.parse('9999999999999.99'), 'BRL', 'amount')).toBe(999_999_999_999_999n);
    expect(toMinorUnits(JSON.parse('999999999999999'), 'CLP', 'amount')).toBe(999_999_999_999_999n);
    // An exact integer, however large, is read as written; the rail's limits refuse it (payout).
    expect(toMinorUnits(1e15, 'BRL', 'amount')).toBe(10n ** 17n);
  });

  it('reads every amount of at most 15 significant digits exactly, as the client wrote it (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 999_999_999_999_999n }), (minor) => {
        const written = `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
        expect(toMinorUnits(JSON.parse(written), 'BRL', 'amount')).toBe(minor);
      }),
    );
  });

  it('an amount beyond 15 significant digits is refused or read above every possible rail maximum (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1_000_000_000_000_000n, max: 10n ** 20n }), (minor) => {
        const written = `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
        let read: bigint | undefined;
        try {
          read = toMinorUnits(JSON.parse(written), 'BRL', 'amount');
        } catch (err) {
          expect(err).toBeInstanceOf(ApiError);
          return;
        }
        // Limits are at most 15 digits of minor units (payout RAIL_LIMITS_*): payout refuses it.
        expect(read).toBeGreaterThan(999_999_999_999_999n);
      }),
    );
  });

  it('round-trips any minor-unit amount (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), (minor) => {
        expect(toMinorUnits(fromMinorUnits(minor, 'BRL'), 'BRL', 'amount')).toBe(minor);
      }),
    );
  });
});
