import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth and no whitespace: two bodies that parse to the same
 * value (key order, spacing, escapes) have the same text. Arrays keep their order.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // undefined never comes out of JSON.parse; treat it as null so the text stays JSON.
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/**
 * SHA-256 (hex) of the operation and the canonical JSON of the parsed body
 * (docs/api/idempotency.md "The Idempotency-Key": "same key and different body" is a conflict). The
 * operation is part of it, so one key reused on /v1/execute and /v1/pay is a conflict too. The same
 * value goes to payout's durable record.
 */
export function requestFingerprint(operation: string, body: unknown): string {
  return createHash('sha256')
    .update(`${operation}\n${canonicalJson(body)}`)
    .digest('hex');
}
