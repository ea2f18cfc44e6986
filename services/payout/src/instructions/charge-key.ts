// The charge a single-use QR pays (README "Charges paid once"): an instruction made from such a
// QR stores this key, its transaction copies it, and a partial unique index on transactions lets
// one live (not failed) payment of a charge exist, across tenants and idempotency keys.
//
// Only dynamic Pix is a single-use charge today: its location (BR Code 26/25) names a `cob` at the
// merchant's PSP, which the BCB lets be paid once (it then becomes CONCLUIDA). A PSP may unlink a
// location and link it to a new charge, so the key is the location together with the payload's
// txid. Static QRs are reusable and have no key; the other schemes' dynamic references (terminal
// ids, store labels) do not reliably name one charge, so they have none either.

/** What the key is read from: a payout.decoder.v1.DecodedQr, or its protobuf JSON (same names). */
export type ChargeSource = {
  readonly schemeId?: unknown;
  readonly references?: unknown;
};

const PIX_SCHEME = 'BR.PIX';
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

function stringReference(references: unknown, name: string): string {
  if (typeof references !== 'object' || references === null) return '';
  const value = (references as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * A Pix location as one string per charge: without a scheme (BR Codes write none), the host in
 * lower case and without the default port, the path as written (paths are case-sensitive) without
 * a trailing slash.
 */
export function normalizePixLocation(location: string): string {
  const bare = location.trim().replace(URL_SCHEME, '');
  const slash = bare.indexOf('/');
  const host = (slash === -1 ? bare : bare.slice(0, slash)).toLowerCase().replace(/:443$/, '');
  const path = slash === -1 ? '' : bare.slice(slash).replace(/\/+$/, '');
  return `${host}${path}`;
}

/**
 * `pix:<normalized location>` plus `#<txid>` when the decoded QR has one, for a dynamic Pix QR;
 * null for a QR that is not a single-use charge.
 */
export function chargeKeyOf(decoded: ChargeSource): string | null {
  if (decoded.schemeId !== PIX_SCHEME) return null;
  const location = stringReference(decoded.references, 'pix_location');
  if (location === '') return null;
  const normalized = normalizePixLocation(location);
  if (normalized === '') return null;
  // "***" is the BR Code's "no txid" (62/05); the payload's txid replaces it in a decoded charge.
  const txid = stringReference(decoded.references, 'txid');
  return txid === '' || txid === '***' ? `pix:${normalized}` : `pix:${normalized}#${txid}`;
}
