import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Secrets at rest (docs/architecture.md "Services and what each owns": signing secrets and endpoint
// header values are stored encrypted). AES-256-GCM with a random 12-byte nonce per value. Sealed
// layout, version 1:
//
//   [0]      format version (1)
//   [1..4]   key id: first 4 bytes of SHA-256 of the key, so a value names the key that sealed it
//   [5..16]  nonce (12 bytes)
//   [17..]   ciphertext, then the 16-byte GCM tag
//
// The header (version and key id) and a caller-given context string (for example the tenant id
// the value belongs to) are authenticated as additional data: a sealed value copied to another
// row, or a header edited in place, fails to open. Several keys may be given; the first seals,
// all open, so the key can rotate by deploying [new, old] and re-sealing.

const FORMAT_V1 = 1;
const KEY_ID_BYTES = 4;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES;
const MIN_SEALED_BYTES = HEADER_BYTES + NONCE_BYTES + TAG_BYTES;
export const SEALING_KEY_BYTES = 32;

export interface SealedBox {
  /** Encrypts `plaintext` bound to `context`; returns the versioned sealed bytes. */
  seal(plaintext: Uint8Array, context: string): Buffer;
  /** Decrypts a value sealed with the same context by any configured key; throws otherwise. */
  open(sealed: Uint8Array, context: string): Buffer;
  /** Whether the value was sealed by an older key or format and should be re-sealed. */
  needsReseal(sealed: Uint8Array): boolean;
}

export class SealedBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedBoxError';
  }
}

function keyIdOf(key: Uint8Array): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, KEY_ID_BYTES);
}

function additionalData(header: Uint8Array, context: string): Buffer {
  return Buffer.concat([header, Buffer.from(context, 'utf8')]);
}

/** `keys[0]` seals; every key opens. Each key is 32 bytes. */
export function createSealedBox(keys: readonly Uint8Array[]): SealedBox {
  if (keys.length === 0) throw new SealedBoxError('at least one key is required');
  for (const key of keys) {
    if (key.length !== SEALING_KEY_BYTES) {
      throw new SealedBoxError(`a key must be ${SEALING_KEY_BYTES} bytes, got ${key.length}`);
    }
  }
  const entries = keys.map((key) => ({ key: Buffer.from(key), id: keyIdOf(key) }));
  const current = entries[0]!;

  return {
    seal(plaintext, context) {
      const header = Buffer.concat([Buffer.from([FORMAT_V1]), current.id]);
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(additionalData(header, context));
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return Buffer.concat([header, nonce, body, cipher.getAuthTag()]);
    },

    open(sealed, context) {
      const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
      if (bytes.length < MIN_SEALED_BYTES) throw new SealedBoxError('sealed value is truncated');
      if (bytes[0] !== FORMAT_V1) throw new SealedBoxError(`unknown sealed format ${bytes[0]}`);
      const header = bytes.subarray(0, HEADER_BYTES);
      const keyId = header.subarray(1);
      const entry = entries.find((candidate) => candidate.id.equals(keyId));
      if (!entry) throw new SealedBoxError('sealed with a key that is not configured');
      const nonce = bytes.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
      const body = bytes.subarray(HEADER_BYTES + NONCE_BYTES, bytes.length - TAG_BYTES);
      const tag = bytes.subarray(bytes.length - TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', entry.key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(header, context));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(body), decipher.final()]);
      } catch {
        // GCM says only "unable to authenticate"; never echo bytes of the value.
        throw new SealedBoxError('sealed value failed authentication');
      }
    },

    needsReseal(sealed) {
      const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
      return bytes[0] !== FORMAT_V1 || !bytes.subarray(1, HEADER_BYTES).equals(current.id);
    },
  };
}

/** A fresh random 32-byte key as base64, the form `WEBHOOK_SECRETS_KEY` takes. */
export function generateSealingKey(): string {
  return randomBytes(SEALING_KEY_BYTES).toString('base64');
}
