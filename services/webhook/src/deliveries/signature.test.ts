import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { SIGNATURE_HEADER, signatureHeaderValue } from './signature';

// Computed outside the code under test:
//   printf '1700000000.{"id":"evt_1","type":"transaction.completed"}' | openssl dgst -sha256 -hmac <secret>
const VECTOR_BODY = Buffer.from('{"id":"evt_1","type":"transaction.completed"}');
const VECTOR_CURRENT = [
  'whsec_test_secret_one',
  '931d637d5ce37054d94ffd0db6c5c0e8f09b1d36ed8ecf5584374ce542c33025',
];
const VECTOR_PREVIOUS = [
  'whsec_old_secret_two',
  '18b10c61574f275220823a60e1c6aa393ba8eaaccb607d3ac42705d234b1ff58',
];

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
  it('is named service-signature', () => {
    expect(SIGNATURE_HEADER).toBe('service-signature');
  });

  it('matches the openssl vector for one secret', () => {
    expect(signatureHeaderValue([VECTOR_CURRENT[0]!], VECTOR_BODY, 1_700_000_000)).toBe(
      `t=1700000000,v1=${VECTOR_CURRENT[1]}`,
    );
  });

  it('signs with every secret of a rotation, current first', () => {
    expect(signatureHeaderValue([VECTOR_CURRENT[0]!, VECTOR_PREVIOUS[0]!], VECTOR_BODY, 1_700_000_000)).toBe(
      `t=1700000000,v1=${VECTOR_CURRENT[1]},v1=${VECTOR_PREVIOUS[1]}`,
    );
  });

  it('signs the raw bytes, not a decoded string', () => {
    const body = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const value = signatureHeaderValue(['s3cret'], body, 1);
    expect(parseHeader(value).v1).toEqual([expectedHex('s3cret', 1, body)]);
    expect(value).not.toBe(signatureHeaderValue(['s3cret'], Buffer.from(body.toString('utf8')), 1));
  });

  it('refuses no secrets and a bad timestamp', () => {
    expect(() => signatureHeaderValue([], VECTOR_BODY, 1)).toThrow(RangeError);
    expect(() => signatureHeaderValue(['s'], VECTOR_BODY, -1)).toThrow(RangeError);
    expect(() => signatureHeaderValue(['s'], VECTOR_BODY, 1.5)).toThrow(RangeError);
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
