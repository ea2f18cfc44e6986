import type { Originator } from '@qr-payout/platform/partner-protocol';
import { originatorProblem } from './originator';

const debtor = (
  residency: Originator['residency'],
  type: Originator['document']['type'],
  country: string | null,
) => ({
  name: 'Juan Pérez',
  account: 'AR-1',
  residency,
  document: { type, number: '20162475860', issuing_country: country },
});

describe('originatorProblem', () => {
  it.each([
    ['pix', debtor('resident', 'tax_id', 'BR')],
    ['pix', debtor('non_resident', 'tax_id', 'AR')],
    ['pix', debtor('non_resident', 'passport', 'US')],
    ['pix', debtor('non_resident', 'undeclared', null)],
    ['bre-b', debtor('non_resident', 'undeclared', 'DE')],
    ['transferencias-3.0', debtor('resident', 'national_id', 'AR')],
  ] as const)('accepts on %s %j', (rail, d) => {
    expect(originatorProblem(rail, d)).toBeUndefined();
  });

  it.each([
    [
      'pix',
      debtor('resident', 'tax_id', 'AR'),
      'debtor.residency resident needs a document issued by BR, the country of pix',
    ],
    [
      'pix',
      debtor('resident', 'undeclared', null),
      'debtor.residency resident needs a document issued by BR, the country of pix',
    ],
    [
      'cce-inmediatas',
      debtor('non_resident', 'national_id', 'PE'),
      'debtor.residency non_resident contradicts a document issued by PE, the country of cce-inmediatas',
    ],
    [
      'pix',
      debtor('non_resident', 'passport', null),
      'debtor.document.issuing_country is required for a passport',
    ],
  ] as const)('refuses on %s %j', (rail, d, problem) => {
    expect(originatorProblem(rail, d)).toBe(problem);
  });
});
