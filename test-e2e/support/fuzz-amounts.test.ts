// The fuzz stage's oracle (docs/testing.md "Fuzz"): a wrong oracle reports a correct payment as
// a defect, so its reading of amounts is pinned here.
import { answerAmountLiterals, exactMinorUnits, qrAmountMinorUnits } from './fuzz-amounts';

describe('exactMinorUnits', () => {
  it.each([
    ['12.5', 1250n],
    ['12.50', 1250n],
    ['1.25e1', 1250n],
    ['1250e-2', 1250n],
    ['0.01', 1n],
  ])('reads %s as %s minor units', (literal, minor) => {
    expect(exactMinorUnits(literal)).toBe(minor);
  });

  it.each(['0', '-1', '0.001', '012', '1e30', '12.', 'NaN'])('reads %s as no payable amount', (literal) => {
    expect(exactMinorUnits(literal)).toBeUndefined();
  });
});

describe('qrAmountMinorUnits', () => {
  it.each([
    ['12.30', 1230n],
    ['00012.30', 1230n],
    ['10.', 1000n],
    ['.5', 50n],
    ['0.9', 90n],
    ['0000000000001', 100n],
  ])('reads tag 54 %s as %s minor units', (value, minor) => {
    expect(qrAmountMinorUnits(value)).toBe(minor);
  });

  it.each(['', '0', '0.00', '1.234', '12,30', '１２', '12345678901234', '.'])(
    'reads tag 54 %j as no amount',
    (value) => {
      expect(qrAmountMinorUnits(value)).toBeUndefined();
    },
  );
});

describe('answerAmountLiterals', () => {
  it('keeps the amounts as the answer wrote them', () => {
    const text = '{"transaction":{"amount":12.30},"instruction":{"amount":1.0000000000000001}}';
    expect(answerAmountLiterals(text)).toEqual({ transaction: '12.30', instruction: '1.0000000000000001' });
  });
});
