import vectors from '../signature-vectors.json';
import { signWebhookBody, verifyWebhookSignature } from './signature';
import { checkSignatureHeader, signSignatureHeader } from './signature-scheme';

// The shared vectors (../signature-vectors.json), which every signer and verifier of the scheme
// in this repository runs against.
describe('signature scheme: shared test vectors', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const check = checkSignatureHeader({
      header: c.header,
      rawBody: c.body,
      secrets: c.secret,
      nowSeconds: c.now,
      maxAgeSeconds: vectors.tolerance_seconds,
    });
    expect(check.ok).toBe(c.expected.ok);
    if (!check.ok) expect(check.reason).toBe(c.expected.reason);
    const received = verifyWebhookSignature({
      header: c.header,
      rawBody: Buffer.from(c.body),
      secrets: c.secret,
      now: new Date(c.now * 1000),
    });
    expect(received).toEqual(check);
    if (c.signing_secrets) {
      expect(signSignatureHeader(c.signing_secrets, c.body, c.t)).toBe(c.header);
      expect(signWebhookBody(c.signing_secrets, Buffer.from(c.body), c.t)).toBe(c.header);
    }
  });

  it('takes a separate limit for timestamps ahead of the clock', () => {
    const valid = vectors.cases[0]!;
    const at = (nowSeconds: number) =>
      checkSignatureHeader({
        header: valid.header,
        rawBody: valid.body,
        secrets: valid.secret,
        nowSeconds,
        maxAgeSeconds: 300,
        maxFutureSeconds: 60,
      }).ok;
    expect([at(valid.t - 60), at(valid.t - 61), at(valid.t + 300), at(valid.t + 301)]).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });
});
