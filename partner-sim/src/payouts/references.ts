import { randomInt } from 'node:crypto';
import type { Rail } from './protocol';

// The rail's own reference for an accepted payout. Pix follows the BCB end-to-end id; the other
// rails use the simulator's own documented formats (docs/partner-protocol.md "References"), each an ISO 20022
// Max35Text: a rail prefix, the UTC date and random characters.

/** The ISPB the simulated PSP signs its Pix end-to-end ids with (not a real participant). */
export const SIM_ISPB = '99999999';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const DIGITS = '0123456789';

function randomFrom(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** yyyyMMddHHmm in UTC (the BCB end-to-end id is stamped in UTC). */
function utcMinute(at: Date): string {
  return at.toISOString().slice(0, 16).replace(/[-T:]/g, '');
}

function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10).replace(/-/g, '');
}

const GENERATORS: Readonly<Record<Rail, (at: Date) => string>> = {
  // BCB: "E" + ISPB of the payer's PSP + yyyyMMddHHmm + 11 alphanumerics = 32 characters.
  pix: (at) => `E${SIM_ISPB}${utcMinute(at)}${randomFrom(ALPHANUMERIC, 11)}`,
  'transferencias-3.0': () => randomFrom(UPPER_ALPHANUMERIC, 22),
  'bre-b': (at) => `BREB${utcDate(at)}${randomFrom(UPPER_ALPHANUMERIC, 20)}`,
  'cce-inmediatas': (at) => `CCE${utcDate(at)}${randomFrom(DIGITS, 16)}`,
  'bolivia-qr-interoperable': (at) => `BQR${utcDate(at)}${randomFrom(DIGITS, 16)}`,
};

/** What each rail's references look like (tests and adapters may check against these). */
export const REFERENCE_PATTERNS: Readonly<Record<Rail, RegExp>> = {
  pix: /^E[0-9]{8}[0-9]{12}[a-zA-Z0-9]{11}$/,
  'transferencias-3.0': /^[A-Z0-9]{22}$/,
  'bre-b': /^BREB[0-9]{8}[A-Z0-9]{20}$/,
  'cce-inmediatas': /^CCE[0-9]{8}[0-9]{16}$/,
  'bolivia-qr-interoperable': /^BQR[0-9]{8}[0-9]{16}$/,
};

export function newRailReference(rail: Rail, at: Date): string {
  return GENERATORS[rail](at);
}
