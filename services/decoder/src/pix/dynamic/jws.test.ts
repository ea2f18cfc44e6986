import { constants, generateKeyPairSync, type JsonWebKey, type KeyObject, sign } from 'node:crypto';
import { readErrorDetail } from '@qr-payout/platform/errors';
import { parseCompactJws, publicKeyFor, verifyJwsSignature } from './jws';

// Signing here stands in for the receiving PSP (the partner simulator does the same for real).
function b64(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

function signJws(header: Record<string, unknown>, payload: unknown, key: KeyObject): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const signature =
    header.alg === 'PS256'
      ? sign('sha256', Buffer.from(input), {
          key,
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
        })
      : sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return readErrorDetail(err)?.metadata.reason;
  }
  return undefined;
}

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ecJwk: JsonWebKey = { ...ec.publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'ES256' };
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaJwk: JsonWebKey = rsa.publicKey.export({ format: 'jwk' });
const header = { alg: 'ES256', kid: 'k1', jku: 'https://psp.example/jwks' };
const payload = { txid: 'abc', status: 'ATIVA' };

describe('parseCompactJws', () => {
  it('reads header, payload and signature of a compact JWS', () => {
    const jws = parseCompactJws(`${signJws(header, payload, ec.privateKey)}\n`);
    expect(jws.header).toEqual(header);
    expect(JSON.parse(jws.payload.toString('utf8'))).toEqual(payload);
    expect(jws.signature).toHaveLength(64);
  });

  it.each([
    ['two parts', 'a.b', 'jws_malformed'],
    ['padding in base64url', `${b64(header)}.${b64(payload)}=.c2ln`, 'jws_malformed'],
    ['a header that is not JSON', `${b64('nope')}.${b64(payload)}.c2ln`, 'jws_malformed'],
    ['a header that is an array', `${b64([1])}.${b64(payload)}.c2ln`, 'jws_malformed'],
    ['an empty signature', `${b64(header)}.${b64(payload)}.`, 'jws_malformed'],
    ['alg none', `${b64({ alg: 'none' })}.${b64(payload)}.c2ln`, 'jws_unsupported'],
    ['alg HS256', `${b64({ alg: 'HS256' })}.${b64(payload)}.c2ln`, 'jws_unsupported'],
    ['alg RS256', `${b64({ alg: 'RS256' })}.${b64(payload)}.c2ln`, 'jws_unsupported'],
    [
      'a crit header',
      `${b64({ ...header, crit: ['b64'], b64: false })}.${b64(payload)}.c2ln`,
      'jws_unsupported',
    ],
    ['a kid that is not a string', `${b64({ ...header, kid: 7 })}.${b64(payload)}.c2ln`, 'jws_malformed'],
  ])('refuses %s as a QrDecodeError', (_name, text, reason) => {
    expect(reasonOf(() => parseCompactJws(text))).toBe(reason);
  });
});

describe('verifyJwsSignature', () => {
  it('accepts an ES256 signature made with the published key', () => {
    const jws = parseCompactJws(signJws(header, payload, ec.privateKey));
    const key = publicKeyFor(ecJwk, 'ES256');
    expect(key && verifyJwsSignature(jws, key)).toBe(true);
  });

  it('rejects a payload changed after signing', () => {
    const [h, , s] = signJws(header, payload, ec.privateKey).split('.');
    const tampered = parseCompactJws(`${h}.${b64({ ...payload, status: 'CONCLUIDA' })}.${s}`);
    expect(verifyJwsSignature(tampered, publicKeyFor(ecJwk, 'ES256') as KeyObject)).toBe(false);
  });

  it('rejects a signature made with another key', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jws = parseCompactJws(signJws(header, payload, other.privateKey));
    expect(verifyJwsSignature(jws, publicKeyFor(ecJwk, 'ES256') as KeyObject)).toBe(false);
  });

  it('rejects an ES256 signature in DER form instead of r||s', () => {
    const input = `${b64(header)}.${b64(payload)}`;
    const der = sign('sha256', Buffer.from(input), ec.privateKey).toString('base64url');
    expect(
      verifyJwsSignature(parseCompactJws(`${input}.${der}`), publicKeyFor(ecJwk, 'ES256') as KeyObject),
    ).toBe(false);
  });

  it('accepts PS256 with an RSA key and rejects the same bytes claimed as ES256', () => {
    const psHeader = { ...header, alg: 'PS256' };
    const jws = parseCompactJws(signJws(psHeader, payload, rsa.privateKey));
    expect(verifyJwsSignature(jws, publicKeyFor(rsaJwk, 'PS256') as KeyObject)).toBe(true);
    expect(publicKeyFor(rsaJwk, 'ES256')).toBeUndefined();
  });
});

describe('publicKeyFor', () => {
  it('refuses keys that do not fit the algorithm', () => {
    expect(publicKeyFor({ ...ecJwk, alg: 'PS256' }, 'ES256')).toBeUndefined();
    expect(publicKeyFor({ ...ecJwk, use: 'enc' }, 'ES256')).toBeUndefined();
    expect(publicKeyFor(ecJwk, 'PS256')).toBeUndefined();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    expect(publicKeyFor(p384, 'ES256')).toBeUndefined();
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    expect(publicKeyFor(small, 'PS256')).toBeUndefined();
    expect(publicKeyFor({ kty: 'EC', crv: 'P-256', x: 'bad', y: 'bad' }, 'ES256')).toBeUndefined();
  });

  it('builds a public key even from a JWK that wrongly carries the private part', () => {
    const leaked = { ...ec.privateKey.export({ format: 'jwk' }), kid: 'k1' };
    expect(publicKeyFor(leaked, 'ES256')?.type).toBe('public');
  });
});
