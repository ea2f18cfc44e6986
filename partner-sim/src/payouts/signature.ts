import { createHmac, timingSafeEqual } from 'node:crypto';

// Callback signatures (docs/partner-protocol.md "Callbacks"): `Partner-Signature: t=<unix seconds>,v1=<hex
// HMAC-SHA256(secret, "<t>.<raw body>")>`, the Stripe scheme. The timestamp is signed too, so a
// captured callback cannot be replayed after the receiver's tolerance window.

export const SIGNATURE_HEADER = 'partner-signature';
/** Receivers refuse a timestamp further than this from their clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

export function signCallback(secret: string, rawBody: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

/**
 * Checks a Partner-Signature header against the raw body as received. `now` is the receiver's
 * clock in unix seconds. Several v1 values are accepted (one per secret during a rotation).
 */
export function verifyCallbackSignature(input: {
  secret: string;
  header: string | undefined;
  rawBody: string;
  now: number;
  toleranceSeconds?: number;
}): SignatureCheck {
  const parts = (input.header ?? '').split(',').map((part) => part.trim().split('='));
  const timestamps = parts.filter(([k]) => k === 't').map(([, v]) => v ?? '');
  const signatures = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  if (timestamps.length !== 1 || !/^[0-9]{1,12}$/.test(timestamps[0]!) || signatures.length === 0) {
    return { ok: false, reason: 'malformed' };
  }
  const timestamp = Number(timestamps[0]);
  if (Math.abs(input.now - timestamp) > (input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) {
    return { ok: false, reason: 'stale' };
  }
  const expected = Buffer.from(hmacHex(input.secret, timestamp, input.rawBody), 'hex');
  const matches = signatures.some((candidate) => {
    if (!/^[0-9a-f]{64}$/.test(candidate)) return false;
    return timingSafeEqual(Buffer.from(candidate, 'hex'), expected);
  });
  return matches ? { ok: true } : { ok: false, reason: 'mismatch' };
}
