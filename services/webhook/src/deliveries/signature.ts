import { createHmac } from 'node:crypto';

// Webhook signing, docs/api/webhooks.md "The signature":
// `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over `<t>.<raw body>`, keyed with the
// tenant's signing secret (its UTF-8 bytes, `whsec_` included). During a rotation's grace period
// every live secret signs, current first, one `v1=` each, so a receiver that still holds the
// previous secret keeps verifying. Secrets pass through here only; they are never logged and the
// header value is not stored.

export const SIGNATURE_HEADER = 'service-signature';

function hmacHex(secret: string, signedPayload: Buffer): string {
  return createHmac('sha256', secret).update(signedPayload).digest('hex');
}

/** The Service-Signature header value for `body` sent at `timestampSeconds`, one v1 per secret. */
export function signatureHeaderValue(
  secrets: readonly string[],
  body: Buffer,
  timestampSeconds: number,
): string {
  if (secrets.length === 0) throw new RangeError('at least one signing secret is required');
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`timestampSeconds must be a non-negative integer, got ${timestampSeconds}`);
  }
  // The raw bytes are signed as they go on the wire, never a re-serialization of the JSON.
  const signedPayload = Buffer.concat([Buffer.from(`${timestampSeconds}.`), body]);
  return [`t=${timestampSeconds}`, ...secrets.map((secret) => `v1=${hmacHex(secret, signedPayload)}`)].join(
    ',',
  );
}
