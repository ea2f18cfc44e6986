import { createHmac, timingSafeEqual } from 'node:crypto';

// The one implementation of the `t=…,v1=…` signature scheme (docs/api/webhooks.md "The
// signature", docs/partner-protocol.md "Callbacks"):
//   <header>: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>
// Our webhooks (`Service-Signature`) and partner callbacks (`Partner-Signature`) use it; during a
// secret rotation the header carries one v1 value per valid secret, and a verifier accepts when any
// v1 matches any of its secrets. Other schemes (a future `v2=`) are ignored. The webhook service,
// the gateway and the partner simulator import this module; it lives in this package because the
// package is published to integrators and must stay installable on its own.
// Its shared test vectors: ../signature-vectors.json.

/** A longer header is refused as malformed before any work is done on it. */
const MAX_HEADER_LENGTH = 8192;

export type SignatureFailureReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'no_matching_signature';

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailureReason };

export type CheckSignatureHeaderOptions = {
  /** The header value as received. */
  header: unknown;
  /** The exact request body bytes, before any JSON parsing. */
  rawBody: Buffer | string;
  /** The signing secret, or several (current first) during a rotation. */
  secrets: string | readonly string[];
  /** The verifier's clock, unix seconds. */
  nowSeconds: number;
  /** Oldest accepted signature: refused when now − t exceeds this. */
  maxAgeSeconds: number;
  /** Clock skew tolerated for a timestamp ahead of now; default maxAgeSeconds. */
  maxFutureSeconds?: number;
};

/**
 * Checks a signature header against the raw body: parses `t` and the v1 values, refuses a
 * timestamp outside the tolerance, recomputes the HMAC for every secret and compares each v1
 * value in constant time. Never throws for anything in the header; throws a TypeError for a
 * misuse (no secret, a parsed object instead of the raw body).
 */
export function checkSignatureHeader(opts: CheckSignatureHeaderOptions): SignatureCheck {
  const secrets = checkSecrets(opts.secrets);
  const rawBody = checkRawBody(opts.rawBody);
  if (opts.header === undefined || opts.header === null || opts.header === '') {
    return { ok: false, reason: 'missing_header' };
  }
  if (typeof opts.header !== 'string') return { ok: false, reason: 'malformed_header' };
  const parsed = parseSignatureHeader(opts.header);
  if (!parsed) return { ok: false, reason: 'malformed_header' };

  const timestamp = Number(parsed.t);
  const age = opts.nowSeconds - timestamp;
  if (age > opts.maxAgeSeconds || -age > (opts.maxFutureSeconds ?? opts.maxAgeSeconds)) {
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  }

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

/** The header value for `rawBody` signed at `timestampSeconds`, one v1 value per secret (in order). */
export function signSignatureHeader(
  secrets: string | readonly string[],
  rawBody: Buffer | string,
  timestampSeconds: number,
): string {
  const list = checkSecrets(secrets);
  const body = checkRawBody(rawBody);
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new TypeError('timestampSeconds must be a non-negative integer (unix seconds)');
  }
  const t = String(timestampSeconds);
  return [`t=${t}`, ...list.map((s) => `v1=${hmacHex(s, t, body)}`)].join(',');
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
