import { checkSignatureHeader, type SignatureCheck } from '@qr-payout/webhook-receiver/signature-scheme';

// Partner callbacks are signed like our own webhooks (docs/partner-protocol.md), by the one
// implementation of the scheme: `Partner-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
// "<t>.<raw body>")>`. The timestamp is signed too, so a captured callback cannot be replayed
// once it is out of tolerance.

export const PARTNER_SIGNATURE_HEADER = 'partner-signature';
/**
 * A callback signed longer ago than this is refused (docs/api/webhooks.md "The signature"
 * recommends 300 s for webhooks).
 */
export const MAX_SIGNATURE_AGE_SECONDS = 300;
/** Clock skew tolerated for a timestamp in the future. */
export const MAX_SIGNATURE_SKEW_SECONDS = 60;

/**
 * Checks the header against the raw body bytes as received, before anything parses them.
 * Several v1 values are accepted (one per secret while a partner rotates).
 */
export function verifyPartnerSignature(input: {
  secret: string;
  header: string | string[] | undefined;
  rawBody: Buffer;
  nowSeconds: number;
}): SignatureCheck {
  return checkSignatureHeader({
    header: input.header,
    rawBody: input.rawBody,
    secrets: input.secret,
    nowSeconds: input.nowSeconds,
    maxAgeSeconds: MAX_SIGNATURE_AGE_SECONDS,
    maxFutureSeconds: MAX_SIGNATURE_SKEW_SECONDS,
  });
}
