import { digitsOnly, isValidCbuCvu } from './cbu-cvu';

describe('Argentine account check digits', () => {
  it('CBU/CVU: both check digits', () => {
    expect(isValidCbuCvu('0000068000000002222956')).toBe(true);
    expect(isValidCbuCvu('0110343230034317537929')).toBe(true);
    expect(isValidCbuCvu('0000068100000002222956')).toBe(false); // first block
    expect(isValidCbuCvu('0000068000000002222957')).toBe(false); // second block
    expect(isValidCbuCvu('000006800000000222295')).toBe(false);
  });

  it('digitsOnly strips punctuation', () => {
    expect(digitsOnly('30-62017749-7')).toBe('30620177497');
  });
});
