import vectors from '@qr-payout/webhook-receiver/signature-vectors.json';
import { signCallback, verifyCallbackSignature } from './signature';

const SECRET = 'sim_callback_secret';
const BODY = '{"id":"pp_1","idempotency_key":"txn_01JD0000000000000000000001","status":"ACSC"}';
const T = 1_790_000_000;

describe('callback signatures (docs/partner-protocol.md "Callbacks")', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('shared vector: %s', (_name, c) => {
    const check = verifyCallbackSignature({
      secret: c.secret,
      header: c.header,
      rawBody: c.body,
      now: c.now,
    });
    expect(check.ok).toBe(c.expected.ok);
    if (!check.ok) expect(check.reason).toBe(c.expected.reason);
    if (c.signing_secrets?.length === 1)
      expect(signCallback(c.signing_secrets[0]!, c.body, c.t)).toBe(c.header);
  });

  it('honours its tolerance in both directions', () => {
    const header = signCallback(SECRET, BODY, T);
    const at = (now: number, toleranceSeconds?: number) =>
      verifyCallbackSignature({ secret: SECRET, header, rawBody: BODY, now, toleranceSeconds }).ok;
    expect([at(T + 300), at(T + 301), at(T - 300), at(T - 301), at(T + 30, 10)]).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
  });

  it.each([undefined, '', 'v1=abc', `t=x,v1=${'a'.repeat(64)}`, `t=${T},t=${T},v1=${'a'.repeat(64)}`])(
    'refuses %p as missing or malformed',
    (header) => {
      const check = verifyCallbackSignature({ secret: SECRET, header, rawBody: BODY, now: T });
      expect(check).toEqual({ ok: false, reason: header ? 'malformed_header' : 'missing_header' });
    },
  );
});
