import { outcomeFor } from './outcome';

describe('outcomeFor (sandbox outcomes, docs/partner-protocol.md "Sandbox outcomes")', () => {
  it('rejects amounts ending in 51 at once with AC03', () => {
    expect(outcomeFor('1051')).toEqual({ kind: 'rejected_at_once', reasonCode: 'AC03' });
    expect(outcomeFor('51')).toEqual({ kind: 'rejected_at_once', reasonCode: 'AC03' });
  });

  it('settles amounts ending in 52 through polling only', () => {
    expect(outcomeFor('99952')).toEqual({
      kind: 'settles_later',
      status: 'ACSC',
      reasonCode: null,
      delay: 'normal',
      callback: false,
    });
  });

  it('rejects amounts ending in 53 with AM04 through polling only', () => {
    expect(outcomeFor('153')).toEqual({
      kind: 'settles_later',
      status: 'RJCT',
      reasonCode: 'AM04',
      delay: 'normal',
      callback: false,
    });
  });

  it('settles amounts ending in 54 slowly with a callback', () => {
    expect(outcomeFor('2554')).toMatchObject({ status: 'ACSC', delay: 'slow', callback: true });
  });

  it.each(['1', '50', '55', '100', '1234', '5100', '9'])('settles %s normally with a callback', (amount) => {
    expect(outcomeFor(amount)).toEqual({
      kind: 'settles_later',
      status: 'ACSC',
      reasonCode: null,
      delay: 'normal',
      callback: true,
    });
  });

  it('reads the digits of a number too long for a double', () => {
    expect(outcomeFor('123456789012345678951')).toMatchObject({ kind: 'rejected_at_once' });
  });
});
