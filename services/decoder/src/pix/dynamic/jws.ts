import { constants, createPublicKey, type JsonWebKey, type KeyObject, verify } from 'node:crypto';
import { dynamicPixError } from './errors';

// RFC 7515 compact JWS, read and verified with node:crypto: three base64url parts, a JSON
// header, and a signature over `header.payload`. Only the algorithms the BCB lets a PSP sign Pix
// payloads with are accepted: ES256 and PS256. Never "none", never HMAC (a public JWKS key used
// as an HMAC secret would let anyone sign).

export const SUPPORTED_ALGORITHMS = ['ES256', 'PS256'] as const;
export type JwsAlgorithm = (typeof SUPPORTED_ALGORITHMS)[number];

export type JwsHeader = {
  readonly alg: JwsAlgorithm;
  readonly kid?: string;
  readonly jku?: string;
  readonly x5u?: string;
};

export type CompactJws = {
  readonly header: JwsHeader;
  /** The decoded payload bytes (JSON for Pix). */
  readonly payload: Buffer;
  /** `base64url(header).base64url(payload)`, what the signature covers. */
  readonly signingInput: Buffer;
  readonly signature: Buffer;
};

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function malformed(why: string) {
  return dynamicPixError('jws_malformed', `The dynamic Pix payload is not a valid JWS: ${why}.`);
}

function decodePart(part: string, name: string): Buffer {
  if (!BASE64URL.test(part)) throw malformed(`the ${name} is not base64url`);
  return Buffer.from(part, 'base64url');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(header: Record<string, unknown>, name: string): string | undefined {
  const value = header[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw malformed(`header "${name}" is not a string`);
  return value;
}

/** Splits and decodes a compact JWS; throws QrDecodeError when it is not one we can verify. */
export function parseCompactJws(text: string): CompactJws {
  const parts = text.trim().split('.');
  if (parts.length !== 3) throw malformed(`expected 3 dot-separated parts, got ${parts.length}`);
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  let header: unknown;
  try {
    header = JSON.parse(decodePart(headerPart, 'header').toString('utf8'));
  } catch (err) {
    if (err instanceof SyntaxError) throw malformed('the header is not JSON');
    throw err;
  }
  if (!isObject(header)) throw malformed('the header is not a JSON object');
  const alg = header.alg;
  if (typeof alg !== 'string' || !(SUPPORTED_ALGORITHMS as readonly string[]).includes(alg)) {
    throw dynamicPixError(
      'jws_unsupported',
      `The dynamic Pix payload is signed with ${typeof alg === 'string' ? alg : 'no algorithm'}; only ES256 and PS256 are accepted.`,
    );
  }
  // RFC 7515 §4.1.11: extensions we do not understand must make verification fail.
  if (header.crit !== undefined) {
    throw dynamicPixError(
      'jws_unsupported',
      'The dynamic Pix payload uses JWS extensions ("crit") we do not support.',
    );
  }
  const signature = decodePart(signaturePart, 'signature');
  if (signature.length === 0) throw malformed('the signature is empty');
  const payload = decodePart(payloadPart, 'payload');
  const kid = optionalString(header, 'kid');
  const jku = optionalString(header, 'jku');
  const x5u = optionalString(header, 'x5u');
  return {
    header: {
      alg: alg as JwsAlgorithm,
      ...(kid === undefined ? {} : { kid }),
      ...(jku === undefined ? {} : { jku }),
      ...(x5u === undefined ? {} : { x5u }),
    },
    payload,
    signingInput: Buffer.from(`${headerPart}.${payloadPart}`, 'ascii'),
    signature,
  };
}

const MIN_RSA_BITS = 2048;

/** The public key of `jwk` when it fits `alg` (key type, curve, size, declared alg and use). */
export function publicKeyFor(jwk: JsonWebKey, alg: JwsAlgorithm): KeyObject | undefined {
  if (jwk.alg !== undefined && jwk.alg !== alg) return undefined;
  if (jwk.use !== undefined && jwk.use !== 'sig') return undefined;
  if (alg === 'ES256' && (jwk.kty !== 'EC' || jwk.crv !== 'P-256')) return undefined;
  if (alg === 'PS256' && jwk.kty !== 'RSA') return undefined;
  let key: KeyObject;
  try {
    // Only the public members: a JWKS that (wrongly) carries "d" must not make this a private key.
    const { kty, crv, x, y, n, e } = jwk;
    key = createPublicKey({ key: { kty, crv, x, y, n, e }, format: 'jwk' });
  } catch {
    return undefined;
  }
  if (alg === 'PS256' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) return undefined;
  return key;
}

/** Whether the signature of `jws` verifies with `key` under the header's algorithm. */
export function verifyJwsSignature(jws: CompactJws, key: KeyObject): boolean {
  try {
    if (jws.header.alg === 'ES256') {
      // JWA §3.4: r || s, 32 bytes each for P-256.
      if (jws.signature.length !== 64) return false;
      return verify('sha256', jws.signingInput, { key, dsaEncoding: 'ieee-p1363' }, jws.signature);
    }
    // JWA §3.5: RSASSA-PSS, MGF1 with SHA-256, salt as long as the hash.
    return verify(
      'sha256',
      jws.signingInput,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
      jws.signature,
    );
  } catch {
    return false;
  }
}
