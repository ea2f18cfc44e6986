import { RAILS } from './protocol';
import { newRailReference, REFERENCE_PATTERNS, SIM_ISPB } from './references';

const AT = new Date('2026-11-23T09:07:59.999Z');

describe('newRailReference', () => {
  it('builds a 32-character Pix end-to-end id: E, ISPB, UTC yyyyMMddHHmm, 11 alphanumerics', () => {
    const reference = newRailReference('pix', AT);
    expect(reference).toHaveLength(32);
    expect(reference.slice(0, 1)).toBe('E');
    expect(reference.slice(1, 9)).toBe(SIM_ISPB);
    expect(reference.slice(9, 21)).toBe('202611230907');
    expect(reference.slice(21)).toMatch(/^[a-zA-Z0-9]{11}$/);
  });

  it('stamps the UTC date, not the local one, on the dated rails', () => {
    const lateEvening = new Date('2026-11-23T23:59:00.000Z');
    expect(newRailReference('bre-b', lateEvening).slice(4, 12)).toBe('20261123');
    expect(newRailReference('cce-inmediatas', lateEvening).slice(3, 11)).toBe('20261123');
    expect(newRailReference('bolivia-qr-interoperable', lateEvening).slice(3, 11)).toBe('20261123');
  });

  it.each(RAILS)(
    'makes %s references that match the documented pattern and fit ISO 20022 Max35Text',
    (rail) => {
      const reference = newRailReference(rail, AT);
      expect(reference).toMatch(REFERENCE_PATTERNS[rail]);
      expect(reference.length).toBeLessThanOrEqual(35);
    },
  );

  it.each(RAILS)('makes distinct %s references', (rail) => {
    const references = new Set(Array.from({ length: 500 }, () => newRailReference(rail, AT)));
    expect(references.size).toBe(500);
  });
});
