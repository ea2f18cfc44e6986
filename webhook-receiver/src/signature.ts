import {
  checkRawBody,
  checkSignatureHeader,
  type SignatureCheck,
  type SignatureFailureReason,
  signSignatureHeader,
} from './signature-scheme';

// The `Service-Signature` header (docs/api/webhooks.md "The signature"), checked and made by the
// one implementation of the scheme (./signature-scheme.ts):
//   Service-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>

export type { SignatureCheck, SignatureFailureReason };

/** Name of the signature header (HTTP header names are case-insensitive). */
export const SIGNATURE_HEADER = 'service-signature';
/**
 * Recommended tolerance between the signed timestamp and the receiver's clock
 * (docs/api/webhooks.md "The signature").
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type VerifyWebhookSignatureOptions = {
  /** The `Service-Signature` header value as received. */
  header: string | undefined;
  /** The exact request body bytes, before any JSON parsing. */
  rawBody: Buffer | string;
  /** The signing secret, or several (current first) while you rotate yours. */
  secrets: string | readonly string[];
  /** Maximum |now − t| in seconds; default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock; default `new Date()`. */
  now?: Date;
};

/**
 * Checks a `Service-Signature` header against the raw body: parses `t` and the v1 values, refuses
 * a timestamp more than `toleranceSeconds` away from now (either direction), recomputes the
 * HMAC for every secret and compares each v1 value in constant time.
 *
 * Never throws for anything in the header; throws a TypeError for a misuse of the function
 * (no secret, a parsed object instead of the raw body, a bad tolerance).
 */
export function verifyWebhookSignature(opts: VerifyWebhookSignatureOptions): SignatureCheck {
  checkRawBody(opts.rawBody);
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('toleranceSeconds must be a finite number >= 0');
  }
  const now = opts.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError('now must be a valid Date');
  return checkSignatureHeader({
    header: opts.header,
    rawBody: opts.rawBody,
    secrets: opts.secrets,
    nowSeconds: Math.floor(now.getTime() / 1000),
    maxAgeSeconds: tolerance,
  });
}

/**
 * TEST HELPER: the `Service-Signature` header value the service would send for `rawBody` at
 * `timestampSeconds`, with one v1 value per secret. Use it in your own tests to build signed
 * requests; production receivers only verify.
 */
export function signWebhookBody(
  secret: string | readonly string[],
  rawBody: Buffer | string,
  timestampSeconds: number,
): string {
  return signSignatureHeader(secret, rawBody, timestampSeconds);
}
