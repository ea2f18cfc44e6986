import {
  checkSignatureHeader,
  type SignatureCheck,
  signSignatureHeader,
} from '@qr-payout/webhook-receiver/signature-scheme';

// Callback signatures (docs/partner-protocol.md "Callbacks"): `Partner-Signature: t=<unix seconds>,v1=<hex
// HMAC-SHA256(secret, "<t>.<raw body>")>`, the Stripe scheme, made and checked by its one
// implementation. The timestamp is signed too, so a captured callback cannot be replayed after the
// receiver's tolerance window.

export type { SignatureCheck };

export const SIGNATURE_HEADER = 'partner-signature';
/** Receivers refuse a timestamp further than this from their clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signCallback(secret: string, rawBody: string, timestamp: number): string {
  return signSignatureHeader(secret, rawBody, timestamp);
}

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
  return checkSignatureHeader({
    header: input.header,
    rawBody: input.rawBody,
    secrets: input.secret,
    nowSeconds: input.now,
    maxAgeSeconds: input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS,
  });
}
