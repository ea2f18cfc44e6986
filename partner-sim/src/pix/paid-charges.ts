import type { ChargeStore, PixCharge } from './charges';
import { locationOf } from './location';

// The simulator is both the payer's partner and the receiving PSP of its own dynamic Pix charges.
// When a Pix payout it settled paid one of those charges, the charge is CONCLUIDA (BCB API Pix: a
// cob is paid once), so its location then serves status CONCLUIDA and a payer resolving the QR
// again is told it was paid. The payout names the charge by the references payout forwards from
// the decoded QR: `pix_location` (26/25) and `txid` (from the signed payload).

/** A location as written in 26/25, compared without scheme, trailing slash or host case. */
function sameLocation(a: string, b: string): boolean {
  const normalize = (location: string) => {
    const bare = location
      .trim()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .replace(/\/+$/, '');
    const slash = bare.indexOf('/');
    return slash === -1 ? bare.toLowerCase() : `${bare.slice(0, slash).toLowerCase()}${bare.slice(slash)}`;
  };
  return normalize(a) === normalize(b);
}

/**
 * The simulator's own charge that `references` name: the location must be one this simulator
 * serves and the txid the charge's (a location relinked to another charge names another txid).
 */
export function ownChargeOf(
  charges: ChargeStore,
  publicUrl: string,
  references: Readonly<Record<string, string>>,
): PixCharge | undefined {
  const location = references.pix_location;
  const txid = references.txid;
  if (!location || !txid) return undefined;
  const charge = charges.byLocationId(location.replace(/\/+$/, '').split('/').pop() ?? '');
  if (!charge || charge.txid !== txid) return undefined;
  return sameLocation(location, locationOf(publicUrl, charge.locationId)) ? charge : undefined;
}

/**
 * Marks the charge a settled Pix payout paid as CONCLUIDA; the charge as it now stands, or
 * undefined when the payout paid none of this simulator's charges. A charge no longer ATIVA
 * (removed, or concluded by an earlier payout) keeps its status.
 */
export function concludePaidCharge(
  charges: ChargeStore,
  publicUrl: string,
  payout: { rail: string; references: Readonly<Record<string, string>> },
): PixCharge | undefined {
  if (payout.rail !== 'pix') return undefined;
  const charge = ownChargeOf(charges, publicUrl, payout.references);
  return charge && charges.changeStatus(charge.txid, 'CONCLUIDA');
}
