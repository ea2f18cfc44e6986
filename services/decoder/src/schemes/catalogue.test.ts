import { minorUnitDigits } from '@qr-payout/platform/money';
import { COUNTRIES } from '../decode/fields';
import { SCHEME_CATALOGUE } from './catalogue';

// docs/architecture.md "What the service does": the payout currency of each country.
const SPEC_PAYOUT_CURRENCY: Record<string, string> = {
  AR: 'ARS',
  BR: 'BRL',
  BO: 'BOB',
  CO: 'COP',
  PE: 'PEN',
};

describe('scheme catalogue', () => {
  it('has unique ids of the form <COUNTRY>.<NAME>', () => {
    const ids = SCHEME_CATALOGUE.map((scheme) => scheme.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Z]{2}\.[A-Z0-9_]+$/);
  });

  it.each(SCHEME_CATALOGUE.map((scheme) => [scheme.id, scheme] as const))(
    '%s: id prefix is its country and its currency is the country payout currency',
    (id, scheme) => {
      expect(id.slice(0, 2)).toBe(scheme.country);
      expect(SPEC_PAYOUT_CURRENCY[scheme.country]).toBe(scheme.currency);
    },
  );

  it('gives every country a currency with ISO 4217 digits, the ones its amounts are read and shown with', () => {
    const digits = Object.values(COUNTRIES).map((info) => [info.currency, minorUnitDigits(info.currency)]);
    expect(Object.fromEntries(digits)).toEqual({ ARS: 2, BOB: 2, BRL: 2, COP: 2, PEN: 2 });
  });

  it.each(SCHEME_CATALOGUE.map((scheme) => [scheme.id, scheme] as const))(
    '%s: has a name, a rail, a description and known qr types',
    (_id, scheme) => {
      expect(scheme.name.trim()).not.toBe('');
      expect(scheme.rail).toMatch(/^[a-z0-9.-]+$/);
      expect(scheme.description.trim()).not.toBe('');
      expect(scheme.qrTypes.length).toBeGreaterThan(0);
      expect(new Set(scheme.qrTypes).size).toBe(scheme.qrTypes.length);
      for (const type of scheme.qrTypes) expect(['static', 'dynamic']).toContain(type);
    },
  );

  it('covers every supported country', () => {
    const countries = new Set(SCHEME_CATALOGUE.map((scheme) => scheme.country));
    expect([...countries].sort()).toEqual(Object.keys(SPEC_PAYOUT_CURRENCY).sort());
  });

  it('uses one rail per country', () => {
    const railByCountry = new Map<string, Set<string>>();
    for (const scheme of SCHEME_CATALOGUE) {
      const rails = railByCountry.get(scheme.country) ?? new Set<string>();
      rails.add(scheme.rail);
      railByCountry.set(scheme.country, rails);
    }
    for (const [country, rails] of railByCountry)
      expect({ country, rails: rails.size }).toEqual({ country, rails: 1 });
  });
});
