import { constants, sign } from 'node:crypto';
import type { SigningKey } from './keys';

// RFC 7515 compact serialization: base64url(header).base64url(payload).base64url(signature).

export type JwsHeader = { alg: string; kid: string; jku: string } & Record<string, unknown>;

function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** Signs `payload` as a compact JWS with the key's algorithm and the given jku. */
export function signCompactJws(payload: unknown, key: SigningKey, jku: string): string {
  const header: JwsHeader = { alg: key.alg, kid: key.kid, jku };
  const signingInput = `${encodeJson(header)}.${encodeJson(payload)}`;
  const data = Buffer.from(signingInput, 'ascii');
  const signature =
    key.alg === 'ES256'
      ? // JWA §3.4: ECDSA signatures are r || s (64 bytes), not DER.
        sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
      : // JWA §3.5: RSASSA-PSS with MGF1/SHA-256 and a salt as long as the hash.
        sign('sha256', data, {
          key: key.privateKey,
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
        });
  return `${signingInput}.${signature.toString('base64url')}`;
}
