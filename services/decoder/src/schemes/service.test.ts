import type { SchemeEntry } from './catalogue';
import { SCHEME_CATALOGUE } from './catalogue';
import { createSchemeService } from './service';

describe('createSchemeService', () => {
  it('lists every catalogue entry as a Scheme message, in catalogue order', () => {
    const schemes = createSchemeService({ catalogue: SCHEME_CATALOGUE }).listSchemes();
    expect(schemes.map((scheme) => scheme.id)).toEqual(SCHEME_CATALOGUE.map((entry) => entry.id));
  });

  it('maps every field of an entry', () => {
    const entry: SchemeEntry = {
      id: 'BR.TEST',
      name: 'Test scheme',
      country: 'BR',
      currency: 'BRL',
      rail: 'pix',
      qrTypes: ['dynamic'],
      description: 'A scheme for this test.',
    };
    const [scheme] = createSchemeService({ catalogue: [entry] }).listSchemes();
    expect(scheme).toMatchObject({
      id: 'BR.TEST',
      name: 'Test scheme',
      country: 'BR',
      currency: 'BRL',
      rail: 'pix',
      qrTypes: ['dynamic'],
      description: 'A scheme for this test.',
    });
  });

  it('returns fresh messages, so a caller that mutates one cannot change the next answer', () => {
    const service = createSchemeService({ catalogue: SCHEME_CATALOGUE });
    const first = service.listSchemes();
    first[0]!.id = 'XX.CHANGED';
    first[0]!.qrTypes.pop();
    const second = service.listSchemes();
    expect(second[0]!.id).toBe(SCHEME_CATALOGUE[0]!.id);
    expect(second[0]!.qrTypes).toEqual(SCHEME_CATALOGUE[0]!.qrTypes);
  });
});
