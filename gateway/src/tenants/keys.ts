import { createHash, hash, randomBytes } from 'node:crypto';

// API key format: `qrp_` + 8-char public id + `_` + 32 secret chars, all base62.
// The prefix (`qrp_` + public id, 12 chars) is public: safe to show, list and log.
// The whole key is the secret; only its SHA-256 is stored.
export const KEY_SCHEME = 'qrp_';
export const PUBLIC_ID_LENGTH = 8;
export const SECRET_LENGTH = 32;
export const PREFIX_LENGTH = KEY_SCHEME.length + PUBLIC_ID_LENGTH;

// Keys supplied from outside (the sandbox's SANDBOX_API_KEY) must have this length.
export const GIVEN_KEY_MIN_LENGTH = 16;
export const GIVEN_KEY_MAX_LENGTH = 256;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 248 = 4 * 62: bytes at or above it are dropped so every character is equally likely.
const UNBIASED_BYTE_LIMIT = 248;

const GENERATED_KEY_PATTERN = new RegExp(
  `^${KEY_SCHEME}[0-9A-Za-z]{${PUBLIC_ID_LENGTH}}_[0-9A-Za-z]{${SECRET_LENGTH}}$`,
);
// Printable ASCII without spaces: a key travels in the `x-api-key` header.
const GIVEN_KEY_PATTERN = /^[\x21-\x7e]+$/;

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_BYTE_LIMIT) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export interface GeneratedKey {
  key: string;
  prefix: string;
}

export function generateApiKey(): GeneratedKey {
  const prefix = KEY_SCHEME + randomBase62(PUBLIC_ID_LENGTH);
  return { key: `${prefix}_${randomBase62(SECRET_LENGTH)}`, prefix };
}

export function isGeneratedKeyShape(key: string): boolean {
  return GENERATED_KEY_PATTERN.test(key);
}

/** Why a key given from outside is unusable, or undefined when it is fine. */
export function givenKeyProblem(key: string): string | undefined {
  if (key.length < GIVEN_KEY_MIN_LENGTH || key.length > GIVEN_KEY_MAX_LENGTH) {
    return `api_key must be ${GIVEN_KEY_MIN_LENGTH} to ${GIVEN_KEY_MAX_LENGTH} characters`;
  }
  if (!GIVEN_KEY_PATTERN.test(key)) return 'api_key must be printable ASCII without spaces';
  return undefined;
}

/** The public prefix of any key: its first 12 characters (the whole `qrp_xxxxxxxx` for ours). */
export function keyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The key's SHA-256 as hex: the in-process cache key of a key (never the key itself). */
export function hashApiKeyHex(key: string): string {
  // One-shot hash: no Hash object per request (this runs on every authenticated request).
  return hash('sha256', key, 'hex');
}
