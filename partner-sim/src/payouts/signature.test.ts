import { createHmac } from 'node:crypto';
import { signCallback, verifyCallbackSignature } from './signature';

const SECRET = 'sim_callback_secret';
const BODY = '{"id":"pp_1","status":"ACSC"}';
const T = 1_795_000_000;

describe('callback signatures', () => {
  it('signs "<t>.<raw body>" with HMAC-SHA256 in hex', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signCallback(SECRET, BODY, T)).toBe(`t=${T},v1=${expected}`);
  });

  it('accepts its own signature within the tolerance', () => {
    const header = signCallback(SECRET, BODY, T);
    expect(verifyCallbackSignature({ secret: SECRET, header, rawBody: BODY, now: T + 299 })).toEqual({
      ok: true,
    });
  });

  it('refuses a timestamp older than five minutes', () => {
    const header = signCallback(SECRET, BODY, T);
    expect(verifyCallbackSignature({ secret: SECRET, header, rawBody: BODY, now: T + 301 })).toEqual({
      ok: false,
      reason: 'stale',
    });
  });

  it('refuses a changed body, another secret and a moved timestamp', () => {
    const header = signCallback(SECRET, BODY, T);
    const check = (over: Partial<Parameters<typeof verifyCallbackSignature>[0]>) =>
      verifyCallbackSignature({ secret: SECRET, header, rawBody: BODY, now: T, ...over });
    expect(check({ rawBody: BODY.replace('ACSC', 'RJCT') })).toEqual({ ok: false, reason: 'mismatch' });
    expect(check({ secret: 'other' })).toEqual({ ok: false, reason: 'mismatch' });
    expect(check({ header: header.replace(`t=${T}`, `t=${T + 1}`) })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('accepts any one of several v1 values (secret rotation)', () => {
    const good = signCallback(SECRET, BODY, T).split(',v1=')[1];
    const header = `t=${T},v1=${'0'.repeat(64)},v1=${good}`;
    expect(verifyCallbackSignature({ secret: SECRET, header, rawBody: BODY, now: T })).toEqual({ ok: true });
  });

  it.each([
    undefined,
    '',
    'v1=abc',
    `t=${T}`,
    `t=x,v1=${'a'.repeat(64)}`,
    `t=${T},t=${T},v1=${'a'.repeat(64)}`,
  ])('calls %p malformed', (header) => {
    expect(verifyCallbackSignature({ secret: SECRET, header, rawBody: BODY, now: T })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});
