import { create } from '@bufbuild/protobuf';
import { readErrorDetail } from '@qr-payout/platform/errors';
import { PayerSchema } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { validatePayer } from './validate-payer';

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    return readErrorDetail(err);
  }
  throw new Error('expected a refusal');
}

type PayerFields = { name: string; account: string; taxId: string; country: string; idType: string };
const payer = (overrides: Partial<PayerFields> = {}) =>
  create(PayerSchema, { name: 'Ana Souza', account: '0001-12345-6', taxId: '123.456.789-09', ...overrides });

describe('validatePayer', () => {
  it('trims the fields and keeps an undeclared id as written', () => {
    expect(validatePayer(payer({ name: '  Ana Souza ' }))).toEqual({
      name: 'Ana Souza',
      account: '0001-12345-6',
      taxId: '123.456.789-09',
      country: null,
      idType: null,
    });
  });

  it('normalizes a declared document by its country’s rule', () => {
    expect(validatePayer(payer({ country: 'BR', idType: 'tax_id' }))).toMatchObject({
      taxId: '12345678909',
      country: 'BR',
      idType: 'tax_id',
    });
  });

  it.each([
    ['payer_name', { name: '   ' }, 'payer_name is required'],
    ['payer_name', { name: 'x'.repeat(141) }, 'payer_name must be at most 140 characters'],
    ['payer_name', { name: 'Ana\u0000' }, 'payer_name must not contain control or formatting characters'],
    [
      'payer_name',
      { name: 'Ana \u202eanuJ' },
      'payer_name must not contain control or formatting characters',
    ],
    [
      'payer_account',
      { account: '12\u001b[2J34' },
      'payer_account must not contain control or formatting characters',
    ],
    ['payer_account', { account: '' }, 'payer_account is required'],
    ['payer_account', { account: '1'.repeat(65) }, 'payer_account must be at most 64 characters'],
    ['payer_tax_id', { taxId: '' }, 'payer_tax_id is required'],
    ['payer_tax_id', { taxId: 'P'.repeat(65) }, 'payer_tax_id must be at most 64 characters'],
    ['payer_tax_id', { taxId: 'AB\u0007' }, 'payer_tax_id must not contain control or formatting characters'],
    // A lone surrogate is no character at all (it has no UTF-8 form): found accepted, paid, stored.
    [
      'payer_tax_id',
      { taxId: 'X1234\ud800' },
      'payer_tax_id must not contain control or formatting characters',
    ],
    ['payer_tax_id', { taxId: '123.456.789-00', country: 'BR' }, 'payer_tax_id is not a valid CPF'],
    [
      'payer_country',
      { country: 'Brazil' },
      'payer_country must be an ISO 3166-1 alpha-2 country code in upper case (AR, US, ...)',
    ],
    [
      'payer_id_type',
      { country: 'BR', idType: 'cpf' },
      'payer_id_type must be one of tax_id, national_id, passport',
    ],
  ])('names %s when it is bad', (field, overrides, message) => {
    expect(refusal(() => validatePayer(payer(overrides)))).toMatchObject({
      tag: 'ValidationError',
      field,
      message,
    });
  });

  it('counts characters as the API schema does (code points): 64 emoji are 64 characters, not 128', () => {
    // Found by Schemathesis: a tax id of 64 characters with some outside the BMP passed the
    // gateway's maxLength and was refused here, a schema-valid request rejected.
    const wide = '😀'.repeat(64);
    expect(wide.length).toBe(128);
    expect(validatePayer(payer({ taxId: wide, name: '𝒜'.repeat(140) }))).toMatchObject({ taxId: wide });
    expect(refusal(() => validatePayer(payer({ taxId: `${wide}😀` })))?.message).toBe(
      'payer_tax_id must be at most 64 characters',
    );
  });

  it('refuses a missing payer by its first field', () => {
    expect(refusal(() => validatePayer(undefined))?.field).toBe('payer_name');
  });
});
