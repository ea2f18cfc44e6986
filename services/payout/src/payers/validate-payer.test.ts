import { create } from '@bufbuild/protobuf';
import { readErrorDetail } from '@qr-payout/platform';
import { PayerSchema } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import fc from 'fast-check';
import { checkPayerTaxId } from './tax-ids';
import { validatePayer } from './validate-payer';

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    return readErrorDetail(err);
  }
  throw new Error('expected a refusal');
}

const payer = (overrides: Partial<{ name: string; account: string; taxId: string }> = {}) =>
  create(PayerSchema, { name: 'Ana Souza', account: '0001-12345-6', taxId: '123.456.789-09', ...overrides });

describe('validatePayer', () => {
  it('trims the fields and normalizes the tax id', () => {
    expect(validatePayer(payer({ name: '  Ana Souza ' }), 'BR')).toEqual({
      name: 'Ana Souza',
      account: '0001-12345-6',
      taxId: '12345678909',
    });
  });

  it.each([
    ['payer_name', { name: '   ' }, 'payer_name is required'],
    ['payer_name', { name: 'x'.repeat(141) }, 'payer_name must be at most 140 characters'],
    ['payer_name', { name: 'Ana\u0000' }, 'payer_name must not contain control characters'],
    ['payer_account', { account: '' }, 'payer_account is required'],
    ['payer_account', { account: '1'.repeat(65) }, 'payer_account must be at most 64 characters'],
    ['payer_tax_id', { taxId: '' }, 'payer_tax_id is required'],
    ['payer_tax_id', { taxId: '123.456.789-00' }, 'payer_tax_id is not a valid CPF'],
  ])('names %s when it is bad', (field, overrides, message) => {
    expect(refusal(() => validatePayer(payer(overrides), 'BR'))).toMatchObject({
      tag: 'ValidationError',
      field,
      message,
    });
  });

  it('refuses a missing payer by its first field', () => {
    expect(refusal(() => validatePayer(undefined, 'BR'))?.field).toBe('payer_name');
  });
});

describe('checkPayerTaxId', () => {
  it.each([
    ['BR', '123.456.789-09', '12345678909'],
    ['BR', '50.486.087/0001-27', '50486087000127'],
    ['BR', '12.ABC.345/01DE-35', '12ABC34501DE35'],
    ['AR', '20-16247586-0', '20162475860'],
    ['AR', '12.345.678', '12345678'],
    ['CO', '800.197.268-4', '8001972684'],
    ['CO', '1020304050', '1020304050'],
    ['PE', '20100047218', '20100047218'],
    ['PE', '45678912', '45678912'],
    ['BO', '1234567-1b', '1234567-1B'],
    ['BO', '1020304050607', '1020304050607'],
  ])('%s accepts %s as %s', (country, raw, normalized) => {
    expect(checkPayerTaxId(country, raw)).toEqual({ ok: true, normalized });
  });

  it.each([
    ['BR', '111.111.111-11'],
    ['BR', '50486087000100'],
    ['BR', '1234'],
    ['AR', '20-16247586-1'],
    ['AR', '123456'],
    ['CO', '800197268-5'],
    ['CO', '12345'],
    ['PE', '20100047219'],
    ['PE', '1234567'],
    ['BO', '1234'],
    ['BO', '12345678901234'],
    ['CL', '12345678'],
  ])('%s refuses %s', (country, raw) => {
    expect(checkPayerTaxId(country, raw).ok).toBe(false);
  });
});

// CPF check digits computed here from the base, to generate valid ids of any shape.
function cpfOf(base: string): string {
  let id = base;
  for (const weightFrom of [10, 11]) {
    let sum = 0;
    for (let i = 0; i < id.length; i++) sum += Number(id[i]) * (weightFrom - i);
    const rest = sum % 11;
    id += String(rest < 2 ? 0 : 11 - rest);
  }
  return id;
}

describe('payer tax id (property)', () => {
  const base = fc.stringMatching(/^[0-9]{9}$/).filter((b) => !/^(\d)\1{8}$/.test(b));

  it('a CPF written with or without punctuation is accepted and stored bare', () => {
    fc.assert(
      fc.property(base, fc.boolean(), (b, punctuated) => {
        const cpf = cpfOf(b);
        const written = punctuated
          ? `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`
          : cpf;
        expect(checkPayerTaxId('BR', written)).toEqual({ ok: true, normalized: cpf });
      }),
    );
  });

  it('a CPF with a wrong last digit is refused', () => {
    fc.assert(
      fc.property(base, fc.integer({ min: 1, max: 9 }), (b, shift) => {
        const cpf = cpfOf(b);
        const wrong = cpf.slice(0, 10) + String((Number(cpf[10]) + shift) % 10);
        expect(checkPayerTaxId('BR', wrong).ok).toBe(false);
      }),
    );
  });
});
