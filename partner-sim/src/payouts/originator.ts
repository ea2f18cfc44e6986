// What the simulated partner checks of the originator beyond its JSON shape (docs/payer-identity.md
// "Partner"), as a partner filing originator data with its regulator would: a declared document
// names the country that issued it, and residency agrees with that country and the rail's.
import { type Originator, RAIL_COUNTRY, type RailName } from '@qr-payout/platform/partner-protocol';

/** The originator's inconsistency, in words naming the member; undefined when it holds together. */
export function originatorProblem(rail: RailName, debtor: Originator): string | undefined {
  const { residency, document } = debtor;
  if (document.type !== 'undeclared' && document.issuing_country === null) {
    return `debtor.document.issuing_country is required for a ${document.type}`;
  }
  const country = RAIL_COUNTRY[rail];
  const local = document.issuing_country === country;
  if (residency === 'resident' && !local) {
    return `debtor.residency resident needs a document issued by ${country}, the country of ${rail}`;
  }
  if (residency === 'non_resident' && local) {
    return `debtor.residency non_resident contradicts a document issued by ${country}, the country of ${rail}`;
  }
  return undefined;
}
