import type { HttpRequestOptions, httpRequest } from '@qr-payout/platform/http';
import { parsePayoutResource } from '@qr-payout/platform/partner-protocol';
import { createPartnerClient, partnerOutcome } from './partner-client';

type HttpResponse = Awaited<ReturnType<typeof httpRequest>>;

const RESOURCE = {
  id: 'pp_1',
  idempotency_key: 'txn_1',
  rail: 'pix',
  amount: { currency: 'BRL', amount_minor: '1250' },
  status: 'ACSP',
  reason_code: null,
  reason: null,
  reference: null,
  created_at: '2026-11-23T14:00:00.000Z',
  settled_at: null,
};

type Seen = { url: string; opts: HttpRequestOptions };

function fakeSend(answer: (seen: Seen) => HttpResponse | Promise<HttpResponse>) {
  const seen: Seen[] = [];
  const send: typeof httpRequest = async (url, opts) => {
    const call = { url, opts };
    seen.push(call);
    return answer(call);
  };
  return { seen, send };
}

const json = (status: number, body: unknown): HttpResponse => ({ status, text: JSON.stringify(body) });

function client(send: typeof httpRequest) {
  return createPartnerClient({
    baseUrlFor: (rail) => (rail === 'pix' ? 'http://pix.partner.test/base' : 'http://partner.test'),
    apiKey: 'k_secret',
    timeoutMs: 200,
    send,
  });
}

const BODY = {
  rail: 'pix' as const,
  amount: { currency: 'BRL', amount_minor: '1250' },
  creditor: { name: 'x', account: 'y', account_type: 'pix_email' },
  debtor: {
    name: 'a',
    account: 'b',
    residency: 'non_resident' as const,
    document: { type: 'undeclared' as const, number: 'c', issuing_country: null },
  },
  references: {},
  callback_url: 'http://cb.test/v1/partner/callbacks/pix',
};

describe('partner client', () => {
  it('submits with our transaction id as Idempotency-Key and the bearer key, to the rail base URL', async () => {
    const { seen, send } = fakeSend(() => json(201, RESOURCE));
    const answer = await client(send).submitPayout('pix', 'txn_1', BODY);
    expect(answer).toEqual({ kind: 'answered', resource: RESOURCE });
    expect(seen[0]?.url).toBe('http://pix.partner.test/base/v1/payouts');
    expect(seen[0]?.opts.method).toBe('POST');
    expect(seen[0]?.opts.timeoutMs).toBe(200);
    expect(seen[0]?.opts.headers).toMatchObject({
      authorization: 'Bearer k_secret',
      'idempotency-key': 'txn_1',
      'content-type': 'application/json',
    });
    expect(JSON.parse(String(seen[0]?.opts.body))).toEqual(BODY);
  });

  it.each([
    [500, 'unknown'],
    [503, 'unknown'],
    [429, 'unknown'],
    [409, 'unknown'],
    [401, 'unknown'],
    [400, 'refused'],
    [422, 'refused'],
  ])('reads HTTP %i as %s', async (status, kind) => {
    const { send } = fakeSend(() => json(status, { code: 'x', title: 'y' }));
    expect((await client(send).submitPayout('bre-b', 'txn_1', BODY)).kind).toBe(kind);
  });

  it('reads a 201 without a payout resource, a timeout and a refused connection as unknown', async () => {
    const garbage = fakeSend(() => ({ status: 201, text: '<html>' }));
    expect((await client(garbage.send).submitPayout('pix', 'txn_1', BODY)).kind).toBe('unknown');
    // httpRequest rejects a late answer with an Error named TimeoutError.
    const slow = fakeSend(() =>
      Promise.reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' })),
    );
    expect(await client(slow.send).submitPayout('pix', 'txn_1', BODY)).toEqual({
      kind: 'unknown',
      detail: 'timeout',
    });
    const refused = fakeSend(() =>
      Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    );
    expect(await client(refused.send).submitPayout('pix', 'txn_1', BODY)).toEqual({
      kind: 'unknown',
      detail: 'network error (Error)',
    });
  });

  it('looks a payout up by id and by idempotency key; 404 is not_found', async () => {
    const { seen, send } = fakeSend(({ url }) =>
      url.includes('missing') ? json(404, {}) : json(200, RESOURCE),
    );
    const partner = client(send);
    expect(await partner.getPayout('cce-inmediatas', 'pp_1')).toEqual({ kind: 'found', resource: RESOURCE });
    expect(seen[0]?.url).toBe('http://partner.test/v1/payouts/pp_1');
    expect(seen[0]?.opts).toMatchObject({ method: 'GET', headers: { authorization: 'Bearer k_secret' } });
    expect(await partner.findPayoutByIdempotencyKey('pix', 'txn_missing')).toEqual({ kind: 'not_found' });
    expect(seen[1]?.url).toBe('http://pix.partner.test/base/v1/payouts?idempotency_key=txn_missing');
  });
});

describe('partnerOutcome', () => {
  it('names the class of each answer, never the status itself (a bounded label)', () => {
    expect(partnerOutcome({ ok: true, status: 201, body: undefined })).toBe('success');
    expect(partnerOutcome({ ok: true, status: 404, body: undefined })).toBe('not_found');
    expect(partnerOutcome({ ok: true, status: 429, body: undefined })).toBe('rate_limited');
    expect(partnerOutcome({ ok: true, status: 422, body: undefined })).toBe('client_error');
    expect(partnerOutcome({ ok: true, status: 503, body: undefined })).toBe('server_error');
    expect(partnerOutcome({ ok: false, detail: 'timeout' })).toBe('timeout');
    expect(partnerOutcome({ ok: false, detail: 'network error (Error)' })).toBe('network_error');
  });
});

describe('parsePayoutResource', () => {
  it('accepts the protocol resource and refuses anything else', () => {
    expect(parsePayoutResource(RESOURCE)).toEqual(RESOURCE);
    expect(parsePayoutResource({ ...RESOURCE, status: 'DONE' })).toBeUndefined();
    expect(
      parsePayoutResource({ ...RESOURCE, amount: { currency: 'BRL', amount_minor: 1250 } }),
    ).toBeUndefined();
    expect(parsePayoutResource({ ...RESOURCE, reference: 42 })).toBeUndefined();
    expect(parsePayoutResource([RESOURCE])).toBeUndefined();
  });
});
