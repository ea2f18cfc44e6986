import fc from 'fast-check';
import { canonicalJson, requestFingerprint } from './fingerprint';

// Shuffles object keys at every depth: the same value, another text.
function reorder(value: unknown, seed: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => reorder(v, seed));
  const keys = Object.keys(value);
  const rotated = keys.map((_, i) => keys[(i + seed) % keys.length] as string).reverse();
  return Object.fromEntries(
    rotated.map((k) => [k, reorder((value as Record<string, unknown>)[k], seed + 1)]),
  );
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('is the same text for any key order and parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(20), (value, seed) => {
        const text = canonicalJson(value);
        expect(canonicalJson(reorder(value, seed))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('requestFingerprint', () => {
  const body = { instruction_id: 'ins_1', payer_name: 'Ana', payer_account: '1', payer_tax_id: '2' };

  it('is the SHA-256 hex of the operation and the canonical body', () => {
    const fp = requestFingerprint('POST /v1/execute', body);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint('POST /v1/execute', JSON.parse(JSON.stringify(reorder(body, 3))))).toBe(fp);
  });

  it('differs for another body or another operation', () => {
    const fp = requestFingerprint('POST /v1/execute', body);
    expect(requestFingerprint('POST /v1/execute', { ...body, payer_name: 'Ana ' })).not.toBe(fp);
    expect(requestFingerprint('POST /v1/pay', body)).not.toBe(fp);
    // A number and the string of it are different requests.
    expect(requestFingerprint('POST /v1/pay', { amount: 10 })).not.toBe(
      requestFingerprint('POST /v1/pay', { amount: '10' }),
    );
  });
});
