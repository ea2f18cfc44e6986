import { createHmac, timingSafeEqual } from 'node:crypto';

// Partner callbacks are signed like our own webhooks (docs/partner-protocol.md):
// `Partner-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. The
// timestamp is signed too, so a captured callback cannot be replayed once it is out of tolerance.

export const PARTNER_SIGNATURE_HEADER = 'partner-signature';
/**
 * A callback signed longer ago than this is refused (docs/api/webhooks.md "The signature"
 * recommends 300 s for webhooks).
 */
export const MAX_SIGNATURE_AGE_SECONDS = 300;
/** Clock skew tolerated for a timestamp in the future. */
export const MAX_SIGNATURE_SKEW_SECONDS = 60;

export type PartnerSignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

export function signPartnerCallback(secret: string, rawBody: Buffer | string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

/**
 * Checks the header against the raw body bytes as received, before anything parses them.
 * Several v1 values are accepted (one per secret while a partner rotates); each is compared in
 * constant time.
 */
export function verifyPartnerSignature(input: {
  secret: string;
  header: string | string[] | undefined;
  rawBody: Buffer;
  nowSeconds: number;
}): PartnerSignatureCheck {
  if (input.header === undefined || input.header === '') return { ok: false, reason: 'missing' };
  if (Array.isArray(input.header)) return { ok: false, reason: 'malformed' };
  const parts = input.header.split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const timestamps = parts.filter(([k]) => k === 't').map(([, v]) => v ?? '');
  const signatures = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  const [t] = timestamps;
  if (timestamps.length !== 1 || t === undefined || !/^[0-9]{1,12}$/.test(t) || signatures.length === 0) {
    return { ok: false, reason: 'malformed' };
  }
  const timestamp = Number(t);
  const age = input.nowSeconds - timestamp;
  if (age > MAX_SIGNATURE_AGE_SECONDS || -age > MAX_SIGNATURE_SKEW_SECONDS)
    return { ok: false, reason: 'stale' };
  const expected = Buffer.from(hmacHex(input.secret, timestamp, input.rawBody), 'hex');
  let matched = false;
  for (const candidate of signatures) {
    if (!/^[0-9a-fA-F]{64}$/.test(candidate)) continue;
    // Every candidate is compared (no early exit), so timing tells nothing about which matched.
    if (timingSafeEqual(Buffer.from(candidate, 'hex'), expected)) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: 'mismatch' };
}

function hmacHex(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}
