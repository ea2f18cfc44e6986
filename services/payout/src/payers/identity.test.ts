import { PAYER_ID_TYPES } from '@qr-payout/platform/payer-fields';
import fc from 'fast-check';
import { DOCUMENT_RULES, documentRulesOf } from './documents';
import { resolvePayerDocument } from './identity';

const resolve = (id: string, country?: string, idType?: string) =>
  resolvePayerDocument({ id, country, idType });

// The DIAN verification digit, computed here from its published rule (weights 3, 7, 13, ... from
// the right, mod 11; remainders 0 and 1 are the digit itself).
function nitDigit(body: string): string {
  const weights = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43];
  const sum = [...body].reverse().reduce((acc, d, i) => acc + Number(d) * weights[i]!, 0);
  const rest = sum % 11;
  return String(rest < 2 ? rest : 11 - rest);
}

const AMBIGUOUS_CO =
  'payer_id_type is required: payer_tax_id could be a NIT or CC of CO; send payer_id_type tax_id for a NIT or national_id for a CC';

describe('resolvePayerDocument', () => {
  it.each([
    // [id, country, type] → [number, type]
    ['20-16247586-0', 'AR', 'tax_id', '20162475860', 'tax_id'],
    ['12.345.678', 'AR', 'national_id', '12345678', 'national_id'],
    ['123.456.789-09', 'BR', 'tax_id', '12345678909', 'tax_id'],
    ['12.ABC.345/01DE-35', 'BR', 'tax_id', '12ABC34501DE35', 'tax_id'],
    ['123.456.789-09', 'BR', 'national_id', '12345678909', 'national_id'],
    ['1234567-1b', 'BO', 'national_id', '1234567-1B', 'national_id'],
    ['1020304050607', 'BO', 'tax_id', '1020304050607', 'tax_id'],
    ['800.197.268-4', 'CO', 'tax_id', '8001972684', 'tax_id'],
    ['9001234568', 'CO', 'tax_id', '9001234568', 'tax_id'],
    ['900.123.456-8', 'CO', 'tax_id', '9001234568', 'tax_id'],
    ['9001234568', 'CO', 'national_id', '9001234568', 'national_id'],
    ['1020304050', 'CO', 'national_id', '1020304050', 'national_id'],
    ['20100047218', 'PE', 'tax_id', '20100047218', 'tax_id'],
    ['45678912', 'PE', 'national_id', '45678912', 'national_id'],
    ['123-45-6789', 'US', 'tax_id', '123456789', 'tax_id'],
    ['12.345.678-5', 'CL', 'tax_id', '123456785', 'tax_id'],
    ['1.234.567-2', 'UY', 'national_id', '12345672', 'national_id'],
    ['boxw310820hnerxn09', 'MX', 'national_id', 'BOXW310820HNERXN09', 'national_id'],
    ['x1234567-l', 'ES', 'national_id', 'X1234567L', 'national_id'],
    ['ab 123 4567', 'DE', 'passport', 'AB1234567', 'passport'],
  ])('%s as %s %s is %s', (id, country, idType, number, type) => {
    expect(resolve(id, country, idType)).toEqual({ ok: true, document: { number, idType: type, country } });
  });

  it('infers the type from the one document of the country the id fits', () => {
    expect(resolve('20-16247586-0', 'AR')).toMatchObject({ ok: true, document: { idType: 'tax_id' } });
    expect(resolve('12345678', 'AR')).toMatchObject({ ok: true, document: { idType: 'national_id' } });
    // The dash marks a NIT; a bare number whose last digit is not a NIT digit can only be a CC.
    expect(resolve('900.123.456-8', 'CO')).toMatchObject({ ok: true, document: { idType: 'tax_id' } });
    expect(resolve('1020304051', 'CO')).toMatchObject({ ok: true, document: { idType: 'national_id' } });
    // 11 digits: too long for a CC, so a NIT (a 10-digit CC with its digit).
    expect(resolve('10203040515', 'CO')).toMatchObject({ ok: true, document: { idType: 'tax_id' } });
    // The same number is both documents: the type it has as a tax id (a CPF is a tax id).
    expect(resolve('12345678909', 'BR')).toMatchObject({ ok: true, document: { idType: 'tax_id' } });
    expect(resolve('12.345.678-5', 'CL')).toMatchObject({ ok: true, document: { idType: 'tax_id' } });
    expect(resolve('X1234567L', 'ES')).toMatchObject({ ok: true, document: { idType: 'tax_id' } });
  });

  it('refuses to guess between two documents with different numbers, naming payer_id_type', () => {
    // An integrator's case: a NIT typed without its dash was sent as a CC.
    expect(resolve('9001234568', 'CO')).toEqual({ ok: false, field: 'payer_id_type', message: AMBIGUOUS_CO });
    expect(resolve('900.123.4568', 'CO')).toEqual({
      ok: false,
      field: 'payer_id_type',
      message: AMBIGUOUS_CO,
    });
    // A Bolivian NIT and CI are both bare digits with no check digit.
    expect(resolve('1234567', 'BO')).toEqual({
      ok: false,
      field: 'payer_id_type',
      message:
        'payer_id_type is required: payer_tax_id could be a NIT or CI of BO; send payer_id_type tax_id for a NIT or national_id for a CI',
    });
    expect(resolve('1020304050607', 'BO')).toMatchObject({ ok: true, document: { idType: 'tax_id' } });
    expect(resolve('1234567-1B', 'BO')).toMatchObject({ ok: true, document: { idType: 'national_id' } });
  });

  it('a bare Colombian number is a CC exactly when it cannot be read as a NIT (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{5,8}$/), fc.integer({ min: 0, max: 9 }), (body, last) => {
        const id = `${body}${last}`;
        const isNit = String(last) === nitDigit(body);
        if (isNit) {
          expect(resolve(id, 'CO')).toEqual({ ok: false, field: 'payer_id_type', message: AMBIGUOUS_CO });
          expect(resolve(`${body}-${last}`, 'CO')).toEqual({
            ok: true,
            document: { number: id, idType: 'tax_id', country: 'CO' },
          });
        } else {
          expect(resolve(id, 'CO')).toEqual({
            ok: true,
            document: { number: id, idType: 'national_id', country: 'CO' },
          });
        }
        // Declared, the id is taken as declared: the payer knows which document it is.
        expect(resolve(id, 'CO', 'national_id')).toMatchObject({
          ok: true,
          document: { idType: 'national_id' },
        });
        expect(resolve(id, 'CO', 'tax_id').ok).toBe(isNit);
      }),
    );
  });

  it('an inferred type is the one the id is valid as when declared, with the same number (property)', () => {
    const countries = [...new Set(DOCUMENT_RULES.map((r) => r.country))];
    fc.assert(
      fc.property(
        fc.constantFrom(...countries),
        fc.stringMatching(/^[0-9A-Z][0-9A-Z.-]{4,18}$/),
        (country, id) => {
          const result = resolve(id, country);
          if (!result.ok) return;
          const { idType, number } = result.document;
          expect(resolve(id, country, idType!)).toEqual(result);
          // Any other type the id is valid as is declared to carry the inferred document's number.
          for (const other of PAYER_ID_TYPES.filter((t) => t !== idType && t !== 'passport')) {
            const rule = documentRulesOf(country).find((r) => r.idType === other);
            const declared = resolve(id, country, other);
            if (rule && declared.ok) {
              expect(rule.sameNumberAs).toBe(idType);
              expect(declared.document.number).toBe(number);
            }
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps an undeclared id as written, with neither country nor type', () => {
    expect(resolve('AB-123 456')).toEqual({
      ok: true,
      document: { number: 'AB-123 456', idType: null, country: null },
    });
  });

  it('accepts unchecked a country or type the catalogue has no rule for', () => {
    expect(resolve('DE123', 'DE')).toEqual({
      ok: true,
      document: { number: 'DE123', idType: null, country: 'DE' },
    });
    expect(resolve('T22000129', 'DE', 'national_id')).toEqual({
      ok: true,
      document: { number: 'T22000129', idType: 'national_id', country: 'DE' },
    });
    expect(resolve('ABC', 'US', 'national_id')).toMatchObject({
      ok: true,
      document: { idType: 'national_id' },
    });
  });

  it.each([
    ['20-16247586-1', 'AR', 'tax_id', 'payer_tax_id', 'payer_tax_id is not a valid CUIT/CUIL'],
    ['20-16247586-1', 'AR', undefined, 'payer_tax_id', 'payer_tax_id is not a valid CUIT/CUIL'],
    ['123.456.789-00', 'BR', 'tax_id', 'payer_tax_id', 'payer_tax_id is not a valid CPF'],
    ['800197268-5', 'CO', 'tax_id', 'payer_tax_id', 'payer_tax_id is not a valid NIT (verification digit)'],
    ['20100047219', 'PE', undefined, 'payer_tax_id', 'payer_tax_id is not a valid RUC'],
    [
      '000-45-6789',
      'US',
      'tax_id',
      'payer_tax_id',
      'payer_tax_id is not a valid SSN, ITIN or EIN (a range never assigned)',
    ],
    ['12.345.678-4', 'CL', 'tax_id', 'payer_tax_id', 'payer_tax_id is not a valid RUT'],
    ['12345', 'PE', 'national_id', 'payer_tax_id', 'payer_tax_id must be a DNI (8 digits)'],
    [
      'AB!1234',
      'FR',
      'passport',
      'payer_tax_id',
      'payer_tax_id must be a passport number (5 to 20 letters and digits)',
    ],
    [
      '123',
      'br',
      'tax_id',
      'payer_country',
      'payer_country must be an ISO 3166-1 alpha-2 country code in upper case (AR, US, ...)',
    ],
    ...['EU', 'XX', 'ZZ'].map((code): [string, string, undefined, string, string] => [
      '123',
      code,
      undefined,
      'payer_country',
      `payer_country ${code} is not an assigned ISO 3166-1 alpha-2 country code (reserved and user-assigned codes such as EU, UK, XK, ZZ are not countries)`,
    ]),
    [
      '123',
      'UK',
      undefined,
      'payer_country',
      'payer_country UK is not an ISO 3166-1 country code; use GB (the United Kingdom)',
    ],
    [
      '123',
      '',
      undefined,
      'payer_country',
      'payer_country must be an ISO 3166-1 alpha-2 country code in upper case (AR, US, ...)',
    ],
    ['123', 'AR', 'dni', 'payer_id_type', 'payer_id_type must be one of tax_id, national_id, passport'],
    [
      '123',
      undefined,
      'passport',
      'payer_country',
      'payer_country is required with payer_id_type: the country that issued the document',
    ],
  ])('refuses %s (%s, %s) naming %s', (id, country, idType, field, message) => {
    expect(resolve(id, country, idType)).toEqual({ ok: false, field, message });
  });

  it('says which documents an id of a known country matched none of', () => {
    expect(resolve('ABC', 'PE')).toEqual({
      ok: false,
      field: 'payer_tax_id',
      message:
        'payer_tax_id matches no document of PE (RUC, DNI); for a passport send payer_id_type passport',
    });
  });

  it('accepts any printable id without a country, unchanged', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }).filter((s) => s.trim() === s && s !== ''),
        (id) => {
          expect(resolve(id)).toEqual({ ok: true, document: { number: id, idType: null, country: null } });
        },
      ),
    );
  });

  it('every catalogue document names a country, a type other than passport and a format', () => {
    for (const rule of DOCUMENT_RULES) {
      expect(rule.country).toMatch(/^[A-Z]{2}$/);
      expect(['tax_id', 'national_id']).toContain(rule.idType);
      expect(rule.format).not.toBe('');
    }
  });
});
