// What scripts/check-packages runs in a fresh project against the packed @qr-payout/client and
// @qr-payout/webhook-receiver, once per way of loading them (docs/testing.md "Packages"). Each check
// prints one TAP-style line; the script totals them.

const assert = require('node:assert/strict');

/** A fetch that answers GET /v1/schemes as the API would, and records the request. */
function fakeFetch(seen) {
  return async (url, init) => {
    seen.push({ url: String(url), headers: new Headers(init?.headers) });
    const body = { schemes: [{ id: 'br-pix', name: 'Pix', countries: ['BR'] }], request_id: 'req_1' };
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/** The checks, each a name and an async body that throws on failure. */
function checksOf({ client, receiver, vectors }) {
  return [
    [
      'createClient lists schemes through the given fetch, with the API key',
      async () => {
        const seen = [];
        const api = client.createClient({
          baseUrl: 'http://api.test',
          apiKey: 'k'.repeat(32),
          fetch: fakeFetch(seen),
        });
        const answer = await api.listSchemes();
        assert.equal(answer.schemes[0].id, 'br-pix');
        assert.equal(seen[0].url, 'http://api.test/v1/schemes');
        assert.equal(seen[0].headers.get('x-api-key'), 'k'.repeat(32));
      },
    ],
    [
      'QrPayoutError is a class of Error',
      async () =>
        assert.ok(Object.prototype.isPrototypeOf.call(Error.prototype, client.QrPayoutError.prototype)),
    ],
    [
      `every signature vector (${vectors.cases.length}) verifies as expected, through the client and the receiver`,
      async () => {
        assert.ok(vectors.cases.length > 0);
        assert.equal(client.verifyWebhookSignature, receiver.verifyWebhookSignature);
        for (const c of vectors.cases) {
          const check = receiver.verifyWebhookSignature({
            header: c.header,
            rawBody: c.body,
            secrets: c.signing_secrets ?? c.secret,
            now: new Date(c.now * 1000),
          });
          assert.deepEqual(
            { ok: check.ok, reason: check.ok ? undefined : check.reason },
            { ok: c.expected.ok, reason: c.expected.reason },
            c.name,
          );
        }
      },
    ],
    [
      'signWebhookBody signs what verifyWebhookSignature accepts',
      async () => {
        const body = '{"id":"evt_1","type":"webhook.ping"}';
        const header = receiver.signWebhookBody('whsec_x', body, Math.floor(Date.now() / 1000));
        assert.equal(receiver.verifyWebhookSignature({ header, rawBody: body, secrets: 'whsec_x' }).ok, true);
      },
    ],
  ];
}

/** Runs the checks under a label; resolves with the number that failed. */
async function runChecks(label, modules) {
  let failed = 0;
  for (const [name, body] of checksOf(modules)) {
    try {
      await body();
      console.log(`ok - ${label}: ${name}`);
    } catch (err) {
      failed += 1;
      console.log(`not ok - ${label}: ${name}\n  ${String(err?.stack ?? err).replaceAll('\n', '\n  ')}`);
    }
  }
  return failed;
}

module.exports = { runChecks };
