import { createHmac } from 'node:crypto';
import { signPartnerCallback, verifyPartnerSignature } from './partner-signature';

const SECRET = 'sim_callback_secret';
const BODY = Buffer.from('{"id":"pp_1","idempotency_key":"txn_01JD0000000000000000000001","status":"ACSC"}');
const NOW = 1_790_000_000;

const verify = (
  header: string | string[] | undefined,
  opts: { body?: Buffer; now?: number; secret?: string } = {},
) =>
  verifyPartnerSignature({
    secret: opts.secret ?? SECRET,
    header,
    rawBody: opts.body ?? BODY,
    nowSeconds: opts.now ?? NOW,
  });

describe('partner callback signatures', () => {
  it('signs HMAC-SHA256(secret, "<t>.<raw body>") as t=..,v1=<hex>', () => {
    const digest = createHmac('sha256', SECRET).update(`${NOW}.${BODY.toString()}`).digest('hex');
    expect(signPartnerCallback(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${digest}`);
  });

  it('accepts its own signature, and one of several v1 values (secret rotation)', () => {
    expect(verify(signPartnerCallback(SECRET, BODY, NOW))).toEqual({ ok: true });
    const other = signPartnerCallback('old-secret', BODY, NOW).split(',')[1];
    expect(verify(`${signPartnerCallback(SECRET, BODY, NOW)},${other}`)).toEqual({ ok: true });
    expect(verify(`${other},${signPartnerCallback(SECRET, BODY, NOW)}`)).toEqual({ ok: true });
  });

  it('refuses another body, another secret, or a tampered digest', () => {
    const header = signPartnerCallback(SECRET, BODY, NOW);
    expect(verify(header, { body: Buffer.from(`${BODY.toString()} `) })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verify(header, { secret: 'other' })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verify(header.replace(/.$/, (c) => (c === '0' ? '1' : '0')))).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('refuses timestamps older than 5 minutes or more than 1 minute ahead', () => {
    expect(verify(signPartnerCallback(SECRET, BODY, NOW - 300))).toEqual({ ok: true });
    expect(verify(signPartnerCallback(SECRET, BODY, NOW - 301))).toEqual({ ok: false, reason: 'stale' });
    expect(verify(signPartnerCallback(SECRET, BODY, NOW + 60))).toEqual({ ok: true });
    expect(verify(signPartnerCallback(SECRET, BODY, NOW + 61))).toEqual({ ok: false, reason: 'stale' });
  });

  it('says missing or malformed for unusable headers', () => {
    expect(verify(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(verify('')).toEqual({ ok: false, reason: 'missing' });
    expect(verify(['a', 'b'])).toEqual({ ok: false, reason: 'malformed' });
    expect(verify('v1=abc')).toEqual({ ok: false, reason: 'malformed' });
    expect(verify(`t=${NOW}`)).toEqual({ ok: false, reason: 'malformed' });
    expect(verify(`t=${NOW},t=${NOW},v1=00`)).toEqual({ ok: false, reason: 'malformed' });
    expect(verify(`t=soon,v1=${'0'.repeat(64)}`)).toEqual({ ok: false, reason: 'malformed' });
    expect(verify(`t=${NOW},v1=not-hex`)).toEqual({ ok: false, reason: 'mismatch' });
  });
});
