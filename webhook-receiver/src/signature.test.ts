import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { signWebhookBody, type VerifyWebhookSignatureOptions, verifyWebhookSignature } from './signature';
import { constantTimeEqual, parseSignatureHeader } from './signature-scheme';

const SECRET = 'whsec_test_current_0123456789abcdef';
const OLD_SECRET = 'whsec_test_previous_fedcba9876543210';
const T = 1_700_000_000;
const NOW = new Date(T * 1000);
const BODY = Buffer.from(
  '{"schema_version":"1","event_id":"5f0c6a8e-3c1b-4d5e-9f7a-1b2c3d4e5f60","event_type":"webhook.ping",' +
    '"occurred_at":"2023-11-14T22:13:20.000Z","data":{"endpoint_id":"whe_1","message":"héllo"}}',
);

/** HMAC computed here with node:crypto alone, independent of the package. */
function independentDigest(secret: string, t: number | string, body: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${t}.`, 'ascii'), body]))
    .digest('hex');
}

const verify = (header: string | undefined, over: Partial<VerifyWebhookSignatureOptions> = {}) =>
  verifyWebhookSignature({ header, rawBody: BODY, secrets: SECRET, now: NOW, ...over });

describe('verifyWebhookSignature', () => {
  it('accepts a good signature and returns its timestamp', () => {
    const header = `t=${T},v1=${independentDigest(SECRET, T, BODY)}`;
    expect(verify(header)).toEqual({ ok: true, timestamp: T });
    expect(verify(header, { rawBody: BODY.toString('utf8') })).toEqual({ ok: true, timestamp: T });
  });

  it('round trip: signWebhookBody matches an independent HMAC and verifies', () => {
    const header = signWebhookBody(SECRET, BODY, T);
    expect(header).toBe(`t=${T},v1=${independentDigest(SECRET, T, BODY)}`);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(header)).toEqual({ ok: true, timestamp: T });
  });

  it('accepts when any of several v1 values matches any secret (rotation)', () => {
    const current = independentDigest(SECRET, T, BODY);
    const previous = independentDigest(OLD_SECRET, T, BODY);
    // Sender rotating: two v1 values; receiver knows only one of the secrets.
    expect(verify(`t=${T},v1=${previous},v1=${current}`)).toMatchObject({ ok: true });
    expect(verify(`t=${T},v1=${current},v1=${previous}`, { secrets: OLD_SECRET })).toMatchObject({
      ok: true,
    });
    // Receiver rotating: one v1 value, two secrets configured.
    expect(verify(`t=${T},v1=${previous}`, { secrets: [SECRET, OLD_SECRET] })).toMatchObject({ ok: true });
    expect(signWebhookBody([SECRET, OLD_SECRET], BODY, T)).toBe(`t=${T},v1=${current},v1=${previous}`);
  });

  it('ignores unknown schemes and whitespace around elements', () => {
    const digest = independentDigest(SECRET, T, BODY);
    expect(verify(`t=${T}, v2=whatever, v1=${digest}`)).toMatchObject({ ok: true });
    expect(verify(`v1=${digest},t=${T}`)).toMatchObject({ ok: true });
    expect(verify(`t=${T},v2=${digest}`)).toEqual({ ok: false, reason: 'no_matching_signature' });
  });

  it('refuses a wrong secret', () => {
    expect(verify(signWebhookBody('whsec_someone_else', BODY, T))).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it('refuses a body changed by one byte, or a tampered digest', () => {
    const header = signWebhookBody(SECRET, BODY, T);
    for (const i of [0, 40, BODY.length - 1]) {
      const changed = Buffer.from(BODY);
      changed[i] = changed[i]! ^ 0x01;
      expect(verify(header, { rawBody: changed })).toEqual({ ok: false, reason: 'no_matching_signature' });
    }
    expect(verify(header, { rawBody: Buffer.concat([BODY, Buffer.from('\n')]) })).toMatchObject({
      ok: false,
    });
    const tampered = header.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect(verify(tampered)).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect(verify(header.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='))).toMatchObject({
      ok: false,
    });
  });

  it('signs over the digits of t as sent, so t cannot be changed', () => {
    const digest = independentDigest(SECRET, T, BODY);
    expect(verify(`t=${T + 1},v1=${digest}`)).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect(verify(`t=0${T},v1=${digest}`)).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect(verify(`t=0${T},v1=${independentDigest(SECRET, `0${T}`, BODY)}`)).toMatchObject({ ok: true });
  });

  it('refuses stale and future timestamps beyond the tolerance, accepts at the edge', () => {
    const at = (t: number) => signWebhookBody(SECRET, BODY, t);
    expect(verify(at(T - 300))).toMatchObject({ ok: true });
    expect(verify(at(T + 300))).toMatchObject({ ok: true });
    expect(verify(at(T - 301))).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verify(at(T + 301))).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verify(at(T - 86_400))).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verify(at(T - 20), { toleranceSeconds: 10 })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verify(at(T - 20), { toleranceSeconds: 30 })).toMatchObject({ ok: true });
  });

  it('uses the real clock by default', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(
      verifyWebhookSignature({ header: signWebhookBody(SECRET, BODY, now), rawBody: BODY, secrets: SECRET }),
    ).toMatchObject({ ok: true });
    expect(
      verifyWebhookSignature({ header: signWebhookBody(SECRET, BODY, T), rawBody: BODY, secrets: SECRET }),
    ).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
  });

  it('distinguishes a missing header from malformed ones', () => {
    expect(verify(undefined)).toEqual({ ok: false, reason: 'missing_header' });
    expect(verify('')).toEqual({ ok: false, reason: 'missing_header' });
    const digest = independentDigest(SECRET, T, BODY);
    for (const header of [
      digest,
      `v1=${digest}`,
      `t=${T}`.replace('=', ''),
      `t=,v1=${digest}`,
      `t=abc,v1=${digest}`,
      `t=-${T},v1=${digest}`,
      `t=${T}.5,v1=${digest}`,
      `t=1e9,v1=${digest}`,
      `t=${T},t=${T},v1=${digest}`,
      `t=${T},v1=${digest},`,
      `t=${T},,v1=${digest}`,
      `t=${T},=x,v1=${digest}`,
      `t=${T};v1=${digest}`,
      `t=1234567890123456,v1=${digest}`,
      `t=${T},v1=${digest},${'x='.repeat(5000)}`,
    ]) {
      expect([header, verify(header)]).toEqual([header, { ok: false, reason: 'malformed_header' }]);
    }
  });

  it('never throws on arbitrary header strings, and never verifies them', () => {
    const digest = independentDigest(SECRET, T, BODY);
    const element = fc.oneof(
      fc.string(),
      fc.constantFrom('t', 'v1', 'v2', ' t ', 'T', 'V1'),
      fc.constant(`${T}`),
      fc.constant(digest.slice(1)),
      fc.constant(`${digest}0`),
      fc.stringMatching(/^[0-9a-f]{64}$/),
      fc.integer({ min: T - 400, max: T + 400 }).map(String),
    );
    const header = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc
        .array(fc.tuple(element, fc.constantFrom('=', '', '=='), element), { maxLength: 6 })
        .map((parts) => parts.map(([k, eq, v]) => `${k}${eq}${v}`).join(',')),
    );
    fc.assert(
      fc.property(header, (h) => {
        const result = verify(h);
        expect(result.ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('compares in constant time without throwing when lengths differ', () => {
    const digest = independentDigest(SECRET, T, BODY);
    expect(constantTimeEqual(digest, digest)).toBe(true);
    expect(constantTimeEqual(digest.slice(0, 63), digest)).toBe(false);
    expect(constantTimeEqual(`${digest}00`, digest)).toBe(false);
    expect(constantTimeEqual('', digest)).toBe(false);
    // Same number of characters, different byte length (UTF-8): still false, no throw.
    expect(constantTimeEqual(`é${digest.slice(1)}`, digest)).toBe(false);
    for (const v1 of ['', 'ab', digest.slice(2), `${digest}ff`, 'é'.repeat(64)]) {
      expect(verify(`t=${T},v1=${v1}`)).toEqual({ ok: false, reason: 'no_matching_signature' });
    }
  });

  it('throws a TypeError on misuse: no secret, a parsed body, a bad tolerance', () => {
    const header = signWebhookBody(SECRET, BODY, T);
    expect(() => verify(header, { secrets: [] })).toThrow(TypeError);
    expect(() => verify(header, { secrets: '' })).toThrow(TypeError);
    expect(() => verify(header, { secrets: [SECRET, ''] })).toThrow(TypeError);
    expect(() => verify(header, { rawBody: JSON.parse(BODY.toString()) })).toThrow(/not a parsed object/);
    expect(() => verify(header, { rawBody: undefined as unknown as Buffer })).toThrow(TypeError);
    expect(() => verify(header, { toleranceSeconds: -1 })).toThrow(TypeError);
    expect(() => verify(header, { toleranceSeconds: Number.NaN })).toThrow(TypeError);
    expect(() => signWebhookBody(SECRET, BODY, 1.5)).toThrow(TypeError);
    // A Uint8Array is bytes too.
    expect(verify(header, { rawBody: new Uint8Array(BODY) as Buffer })).toMatchObject({ ok: true });
  });
});

describe('parseSignatureHeader', () => {
  it('keeps t as sent and every v1 value in order', () => {
    expect(parseSignatureHeader('t=0017,v1=a,v2=b,v1=c')).toEqual({ t: '0017', v1: ['a', 'c'] });
    expect(parseSignatureHeader('t=1')).toEqual({ t: '1', v1: [] });
  });
});
