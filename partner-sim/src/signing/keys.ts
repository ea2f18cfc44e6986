import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';

// The key the simulated receiving PSP signs Pix location payloads with. The BCB lets a PSP sign
// with ES256 or PS256; the algorithm follows the key: EC P-256 → ES256, RSA (≥ 2048 bits) → PS256.

export type JwsAlgorithm = 'ES256' | 'PS256';

export type SigningKey = {
  readonly alg: JwsAlgorithm;
  /** RFC 7638 thumbprint of the public key, so a configured key keeps its kid across restarts. */
  readonly kid: string;
  readonly privateKey: KeyObject;
  /** The public half as published in the JWKS (`kid`, `alg`, `use` included). */
  readonly publicJwk: JsonWebKey;
};

/** PEM text from an env variable: real newlines, or `\n` escapes as many .env files hold them. */
function normalizePem(pem: string): string {
  return pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
}

function algorithmOf(key: KeyObject): JwsAlgorithm {
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1') return 'ES256';
  if (key.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= 2048) return 'PS256';
  throw new Error(
    'invalid configuration: PARTNER_SIM_SIGNING_KEY must be an EC P-256 or an RSA (2048 bits or more) private key',
  );
}

/** RFC 7638: SHA-256 over the required public members in lexicographic order, base64url. */
export function jwkThumbprint(jwk: JsonWebKey): string {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

export function signingKeyFrom(privateKey: KeyObject): SigningKey {
  const alg = algorithmOf(privateKey);
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const kid = jwkThumbprint(jwk);
  return { alg, kid, privateKey, publicJwk: { ...jwk, kid, alg, use: 'sig' } };
}

/** The configured PEM (PKCS#8 or SEC1/PKCS#1) or, without one, a fresh P-256 key for this run. */
export function loadSigningKey(pem: string | undefined): SigningKey {
  if (pem === undefined) {
    return signingKeyFrom(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(normalizePem(pem));
  } catch {
    // The PEM itself is a secret: say what is wrong, never echo it.
    throw new Error('invalid configuration: PARTNER_SIM_SIGNING_KEY is not a readable PEM private key');
  }
  return signingKeyFrom(privateKey);
}
