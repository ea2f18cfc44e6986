import { createHmac } from 'node:crypto';
import { SIGNATURE_HEADER } from '@qr-payout/webhook-receiver';
import { signSignatureHeader as signatureHeaderValue } from '@qr-payout/webhook-receiver/signature-scheme';
import vectors from '@qr-payout/webhook-receiver/signature-vectors.json';
import fc from 'fast-check';

// What the sender puts in Service-Signature (worker.ts), made by the scheme's one implementation.

// An independent verifier, as a receiver would write it.
function parseHeader(value: string): { t: number; v1: string[] } {
  const parts = value.split(',').map((part) => part.split('=') as [string, string]);
  const t = parts.find(([k]) => k === 't')?.[1];
  return { t: Number(t), v1: parts.filter(([k]) => k === 'v1').map(([, v]) => v) };
}

function expectedHex(secret: string, t: number, body: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(String(t), 'ascii'), Buffer.from('.'), body]))
    .digest('hex');
}

describe('signatureHeaderValue (docs/api/webhooks.md "The signature")', () => {
  it.each(vectors.cases.filter((c) => c.signing_secrets).map((c) => [c.name, c] as const))(
    'signs the shared vector: %s',
    (_name, c) => {
      expect(signatureHeaderValue(c.signing_secrets!, Buffer.from(c.body), c.t)).toBe(c.header);
    },
  );

  it('is named service-signature', () => {
    expect(SIGNATURE_HEADER).toBe('service-signature');
  });

  it('signs the raw bytes, not a decoded string', () => {
    const body = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const value = signatureHeaderValue(['s3cret'], body, 1);
    expect(parseHeader(value).v1).toEqual([expectedHex('s3cret', 1, body)]);
    expect(value).not.toBe(signatureHeaderValue(['s3cret'], Buffer.from(body.toString('utf8')), 1));
  });

  it('refuses no secrets and a bad timestamp', () => {
    expect(() => signatureHeaderValue([], Buffer.from('{}'), 1)).toThrow(TypeError);
    expect(() => signatureHeaderValue(['s'], Buffer.from('{}'), -1)).toThrow(TypeError);
    expect(() => signatureHeaderValue(['s'], Buffer.from('{}'), 1.5)).toThrow(TypeError);
  });

  const secrets = fc.array(fc.string({ minLength: 1, maxLength: 64 }), { minLength: 1, maxLength: 3 });
  const body = fc.uint8Array({ minLength: 1, maxLength: 512 }).map((bytes) => Buffer.from(bytes));
  const timestamp = fc.integer({ min: 0, max: 2 ** 33 });

  it('gives one lowercase-hex v1 per secret, each verifying for its own secret', () => {
    fc.assert(
      fc.property(secrets, body, timestamp, (keys, raw, t) => {
        const parsed = parseHeader(signatureHeaderValue(keys, raw, t));
        return (
          parsed.t === t &&
          parsed.v1.length === keys.length &&
          parsed.v1.every((hex, i) => /^[0-9a-f]{64}$/.test(hex) && hex === expectedHex(keys[i]!, t, raw))
        );
      }),
    );
  });

  it('changes every v1 when any single byte of the body changes', () => {
    fc.assert(
      fc.property(
        secrets,
        body,
        timestamp,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (keys, raw, t, at, xor) => {
          const tampered = Buffer.from(raw);
          const index = at % raw.length;
          tampered[index] = tampered[index]! ^ xor;
          const before = parseHeader(signatureHeaderValue(keys, raw, t)).v1;
          const after = parseHeader(signatureHeaderValue(keys, tampered, t)).v1;
          return before.every((hex, i) => hex !== after[i]);
        },
      ),
    );
  });
});
