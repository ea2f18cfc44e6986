import fc from 'fast-check';
import { isValidEin, isValidItin, isValidSsn } from './us-tax-ids';

describe('US taxpayer numbers', () => {
  it.each([
    ['123456789', true],
    ['000456789', false], // area 000
    ['666456789', false], // area 666
    ['900456789', false], // 9xx areas are ITINs
    ['123006789', false], // group 00
    ['123450000', false], // serial 0000
    ['078051120', false], // voided
  ])('SSN %s is valid: %s', (value, valid) => {
    expect(isValidSsn(value)).toBe(valid);
  });

  it.each([
    ['912501234', true],
    ['912701234', true],
    ['912941234', true],
    ['912661234', false],
    ['912891234', false],
    ['912931234', false],
    ['812701234', false],
  ])('ITIN %s is valid: %s', (value, valid) => {
    expect(isValidItin(value)).toBe(valid);
  });

  it.each([
    ['123456789', true],
    ['001234567', false],
    ['071234567', false],
    ['691234567', false],
    ['981234567', true],
  ])('EIN %s is valid: %s', (value, valid) => {
    expect(isValidEin(value)).toBe(valid);
  });

  it('no SSN is an ITIN: the first digit tells them apart', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{9}$/), (value) => {
        expect(isValidSsn(value) && isValidItin(value)).toBe(false);
      }),
    );
  });
});
