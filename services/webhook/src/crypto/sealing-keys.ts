import { type ConfigReader, givenValue } from '@qr-payout/platform/config';
import { SEALING_KEY_BYTES } from './sealed-box';

// WEBHOOK_SECRETS_KEY (and, during a key rotation, WEBHOOK_SECRETS_PREVIOUS_KEYS) through the
// platform's reader shape, so a bad key is reported with every other bad variable in one
// ConfigError. The value is never echoed.

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function decodeKey(raw: string): Buffer | undefined {
  if (BASE64.test(raw)) return Buffer.from(raw, 'base64');
  if (BASE64URL.test(raw)) return Buffer.from(raw, 'base64url');
  return undefined;
}

function keyProblem(name: string, key: Buffer | undefined): string | undefined {
  if (!key) return `${name} must be base64`;
  if (key.length !== SEALING_KEY_BYTES) {
    return `${name} must be ${SEALING_KEY_BYTES} bytes once base64-decoded (got ${key.length})`;
  }
  return undefined;
}

/** The required current key: 32 bytes, base64 (`openssl rand -base64 32`). */
export function sealingKey(name: string): ConfigReader<Buffer> {
  return {
    name,
    secret: true,
    read(env) {
      const raw = givenValue(env, name);
      if (!raw) return { ok: false, problem: `${name} is required (32 random bytes, base64)` };
      const key = decodeKey(raw);
      const problem = keyProblem(name, key);
      return problem ? { ok: false, problem } : { ok: true, value: key! };
    },
  };
}

/** Optional older keys, comma-separated, still accepted for opening values during a rotation. */
export function previousSealingKeys(name: string): ConfigReader<Buffer[]> {
  return {
    name,
    secret: true,
    read(env) {
      const raw = givenValue(env, name);
      if (!raw) return { ok: true, value: [] };
      const keys: Buffer[] = [];
      for (const [index, part] of raw.split(',').entries()) {
        const key = decodeKey(part.trim());
        const problem = keyProblem(`${name} item ${index + 1}`, key);
        if (problem) return { ok: false, problem };
        keys.push(key!);
      }
      return { ok: true, value: keys };
    },
  };
}
