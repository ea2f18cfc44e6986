import { createHmac, timingSafeEqual } from 'node:crypto';

// The `Service-Signature` header (docs/api/webhooks.md "The signature"):
//   Service-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>
// During a secret rotation the header carries one v1 value per valid secret; a receiver accepts
// when any v1 matches any of its secrets. Other schemes (a future `v2=`) are ignored.

/** Name of the signature header (HTTP header names are case-insensitive). */
export const SIGNATURE_HEADER = 'service-signature';
/**
 * Recommended tolerance between the signed timestamp and the receiver's clock
 * (docs/api/webhooks.md "The signature").
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;
/** A longer header is refused as malformed before any work is done on it. */
const MAX_HEADER_LENGTH = 8192;

export type SignatureFailureReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'no_matching_signature';

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailureReason };

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
  const secrets = checkSecrets(opts.secrets);
  const rawBody = checkRawBody(opts.rawBody);
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('toleranceSeconds must be a finite number >= 0');
  }
  const now = opts.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError('now must be a valid Date');

  if (opts.header === undefined || opts.header === null || opts.header === '') {
    return { ok: false, reason: 'missing_header' };
  }
  if (typeof opts.header !== 'string') return { ok: false, reason: 'malformed_header' };
  const parsed = parseSignatureHeader(opts.header);
  if (!parsed) return { ok: false, reason: 'malformed_header' };

  const timestamp = Number(parsed.t);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance)
    return { ok: false, reason: 'timestamp_out_of_tolerance' };

  let matched = false;
  for (const secret of secrets) {
    // The digits of `t` exactly as sent: they are what the sender signed.
    const expected = hmacHex(secret, parsed.t, rawBody);
    // Every candidate is compared (no early exit), so timing tells nothing about which matched.
    for (const candidate of parsed.v1) {
      if (constantTimeEqual(candidate, expected)) matched = true;
    }
  }
  return matched ? { ok: true, timestamp } : { ok: false, reason: 'no_matching_signature' };
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
  const secrets = checkSecrets(secret);
  const body = checkRawBody(rawBody);
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new TypeError('timestampSeconds must be a non-negative integer (unix seconds)');
  }
  const t = String(timestampSeconds);
  return [`t=${t}`, ...secrets.map((s) => `v1=${hmacHex(s, t, body)}`)].join(',');
}

/**
 * `t` and the v1 values of a header, or undefined when it is malformed: every comma-separated
 * element must be `key=value`, exactly one `t` of decimal digits. Unknown keys are ignored. A
 * header without any v1 value is well-formed (it may carry only schemes this version does not
 * know) and simply matches nothing.
 */
export function parseSignatureHeader(header: string): { t: string; v1: string[] } | undefined {
  if (header.length > MAX_HEADER_LENGTH) return undefined;
  let t: string | undefined;
  const v1: string[] = [];
  for (const element of header.split(',')) {
    const at = element.indexOf('=');
    if (at < 0) return undefined;
    const key = element.slice(0, at).trim();
    const value = element.slice(at + 1).trim();
    if (key === '') return undefined;
    if (key === 't') {
      if (t !== undefined) return undefined;
      t = value;
    } else if (key === 'v1') {
      v1.push(value);
    }
  }
  if (t === undefined || !/^[0-9]{1,15}$/.test(t)) return undefined;
  return { t, v1 };
}

/**
 * Constant-time string comparison: false at once when the lengths differ (the expected length,
 * 64 hex digits, is public), otherwise `crypto.timingSafeEqual` on the UTF-8 bytes.
 */
export function constantTimeEqual(candidate: string, expected: string): boolean {
  const a = Buffer.from(candidate, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}

function hmacHex(secret: string, t: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
}

function checkSecrets(secrets: string | readonly string[]): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError('secrets must be a signing secret or a non-empty list of them');
  }
  for (const secret of list) {
    if (typeof secret !== 'string' || secret === '') {
      throw new TypeError('every signing secret must be a non-empty string');
    }
  }
  return list;
}

export function checkRawBody(rawBody: unknown): Buffer | string {
  if (typeof rawBody === 'string' || Buffer.isBuffer(rawBody)) return rawBody;
  if (rawBody instanceof Uint8Array)
    return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  throw new TypeError(
    'rawBody must be the raw request body (Buffer or string), not a parsed object: ' +
      'read the body as bytes (Express: express.raw({ type: "application/json" }) on this route, ' +
      'before any express.json())',
  );
}
