import { constants, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { signCompactJws } from './jws';
import { jwkThumbprint, loadSigningKey, signingKeyFrom } from './keys';

function decodePart(part: string | undefined): unknown {
  return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
}

describe('signCompactJws', () => {
  const jku = 'http://127.0.0.1:4010/.well-known/jwks.json';
  const payload = { txid: 'abc', status: 'ATIVA' };

  it('signs ES256 with a raw r||s signature that verifies against the published JWK', () => {
    const key = loadSigningKey(undefined);
    const jws = signCompactJws(payload, key, jku);
    const [header, body, signature] = jws.split('.');
    expect(decodePart(header)).toEqual({ alg: 'ES256', kid: key.kid, jku });
    expect(decodePart(body)).toEqual(payload);
    const raw = Buffer.from(signature ?? '', 'base64url');
    expect(raw).toHaveLength(64);
    const publicKey = createPublicKey({ key: key.publicJwk, format: 'jwk' });
    const input = Buffer.from(`${header}.${body}`);
    expect(verify('sha256', input, { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw)).toBe(true);
  });

  it('signs PS256 with an RSA key', () => {
    const key = signingKeyFrom(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    expect(key.alg).toBe('PS256');
    const [header, body, signature] = signCompactJws(payload, key, jku).split('.');
    const publicKey = createPublicKey({ key: key.publicJwk, format: 'jwk' });
    const ok = verify(
      'sha256',
      Buffer.from(`${header}.${body}`),
      {
        key: publicKey,
        padding: constants.RSA_PKCS1_PSS_PADDING,
        saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
      },
      Buffer.from(signature ?? '', 'base64url'),
    );
    expect(ok).toBe(true);
  });
});

describe('loadSigningKey', () => {
  it('reads a PEM, also with escaped newlines, and keeps its kid stable', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const a = loadSigningKey(pem);
    const b = loadSigningKey(pem.replace(/\n/g, '\\n'));
    expect(a.kid).toBe(b.kid);
    expect(a.kid).toBe(jwkThumbprint(createPublicKey(privateKey).export({ format: 'jwk' })));
    expect(a.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' });
    expect(a.publicJwk).not.toHaveProperty('d');
  });

  it('refuses unreadable PEM and unsupported key types without echoing the value', () => {
    expect(() => loadSigningKey('not a key')).toThrow(/PARTNER_SIM_SIGNING_KEY is not a readable PEM/);
    const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => loadSigningKey(ed)).toThrow(/EC P-256 or an RSA/);
  });
});

describe('jwkThumbprint', () => {
  it('matches the RFC 7638 §3.1 example', () => {
    const n =
      '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw';
    expect(jwkThumbprint({ kty: 'RSA', e: 'AQAB', n })).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });
});
