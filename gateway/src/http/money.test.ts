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

  it('round-trips any minor-unit amount (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), (minor) => {
        expect(toMinorUnits(fromMinorUnits(minor, 'BRL'), 'BRL', 'amount')).toBe(minor);
      }),
    );
  });
});
