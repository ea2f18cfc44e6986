import { signSignatureHeader } from '@qr-payout/webhook-receiver/signature-scheme';
import vectors from '@qr-payout/webhook-receiver/signature-vectors.json';
import { verifyPartnerSignature } from './partner-signature';

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
const sign = (t: number) => signSignatureHeader(SECRET, BODY, t);

describe('partner callback signatures', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('shared vector: %s', (_name, c) => {
    const check = verify(c.header, { body: Buffer.from(c.body), now: c.now, secret: c.secret });
    expect(check.ok).toBe(c.expected.ok);
    if (!check.ok) expect(check.reason).toBe(c.expected.reason);
  });

  it('refuses timestamps older than 5 minutes or more than 1 minute ahead', () => {
    expect(verify(sign(NOW - 300))).toEqual({ ok: true, timestamp: NOW - 300 });
    expect(verify(sign(NOW - 301))).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verify(sign(NOW + 60))).toEqual({ ok: true, timestamp: NOW + 60 });
    expect(verify(sign(NOW + 61))).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
  });

  it('says missing or malformed for unusable headers', () => {
    expect(verify(undefined)).toEqual({ ok: false, reason: 'missing_header' });
    expect(verify('')).toEqual({ ok: false, reason: 'missing_header' });
    expect(verify(['a', 'b'])).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verify('v1=abc')).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verify(`t=${NOW},t=${NOW},v1=00`)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verify(`t=soon,v1=${'0'.repeat(64)}`)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verify(`t=${NOW}`)).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect(verify(`t=${NOW},v1=not-hex`)).toEqual({ ok: false, reason: 'no_matching_signature' });
  });
});
