import { setTimeout as sleep } from 'node:timers/promises';
import { SIM_API_KEY, startTestPartnerSim } from '@qr-payout/test-kit/partner-sim';
import { eventually } from '@qr-payout/test-kit/wait';
import {
  type PayoutResource,
  RAIL_CURRENCY,
  RAILS,
  REFERENCE_PATTERNS,
  type RunningPartnerSim,
} from '../src/index';
import { type CallbackReceiver, call, newKey, pixPayout, startCallbackReceiver, submit } from './harness';

// The partner payout protocol against the real simulator over HTTP, with callbacks landing on a
// real local receiver (PARTNER_SIM_SETTLE_MS=50, PARTNER_SIM_SLOW_SETTLE_MS=600).

describe('partner-sim payouts over HTTP', () => {
  let sim: RunningPartnerSim;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    receiver = await startCallbackReceiver();
    sim = await startTestPartnerSim();
  });

  afterAll(async () => {
    await sim.close();
    await receiver.close();
  });

  async function poll(id: string): Promise<PayoutResource> {
    const { status, body } = await call<PayoutResource>(sim, 'GET', `/v1/payouts/${id}`);
    expect(status).toBe(200);
    return body;
  }

  const terminal = (id: string) => async () => {
    const payout = await poll(id);
    return payout.status === 'ACSC' || payout.status === 'RJCT' ? payout : undefined;
  };

  describe('sandbox outcomes by the last two digits of amount_minor', () => {
    it('any other amount: ACSP at once, then ACSC through a signed callback within ~200 ms', async () => {
      const key = newKey();
      const started = Date.now();
      const { status, body } = await submit(sim, key, pixPayout('12345', receiver.url));
      expect(status).toBe(201);
      expect(body).toEqual({
        id: expect.stringMatching(/^pp_[0-9a-f]{32}$/),
        idempotency_key: key,
        rail: 'pix',
        amount: { currency: 'BRL', amount_minor: '12345' },
        status: 'ACSP',
        reason_code: null,
        reason: null,
        reference: expect.stringMatching(REFERENCE_PATTERNS.pix),
        created_at: expect.any(String),
        settled_at: null,
        debtor: pixPayout('12345', receiver.url).debtor,
      });

      const [callback] = await eventually(() => {
        const got = receiver.forPayout(body.id);
        return got.length > 0 ? got : undefined;
      });
      expect(callback!.receivedAt - started).toBeLessThan(1000);
      expect(callback!.path).toBe('/v1/partner/callbacks/pix');
      expect(callback!.signature.ok).toBe(true);
      expect(callback!.payout).toMatchObject({
        id: body.id,
        status: 'ACSC',
        reason_code: null,
        reference: body.reference,
        settled_at: expect.any(String),
      });
      expect(await poll(body.id)).toEqual(callback!.payout);
    });

    it('51: RJCT AC03 in the POST answer itself, no rail reference, and the callback too', async () => {
      const { status, body } = await submit(sim, newKey(), pixPayout('1051', receiver.url));
      expect(status).toBe(201);
      expect(body).toMatchObject({
        status: 'RJCT',
        reason_code: 'AC03',
        reason: 'invalid creditor account number',
        reference: null,
        settled_at: null,
      });
      const [callback] = await eventually(() => {
        const got = receiver.forPayout(body.id);
        return got.length > 0 ? got : undefined;
      });
      expect(callback!.signature.ok).toBe(true);
      expect(callback!.payout).toMatchObject({ id: body.id, status: 'RJCT', reason_code: 'AC03' });
    });

    it('52: ACSC reported only through polling, never a callback', async () => {
      const { body } = await submit(sim, newKey(), pixPayout('2052', receiver.url));
      expect(body.status).toBe('ACSP');
      const settled = await eventually(terminal(body.id));
      expect(settled).toMatchObject({ status: 'ACSC', reason_code: null, settled_at: expect.any(String) });
      await sleep(300);
      expect(receiver.forPayout(body.id)).toEqual([]);
    });

    it('53: RJCT AM04 reported only through polling, never a callback', async () => {
      const { body } = await submit(sim, newKey(), pixPayout('3053', receiver.url));
      expect(body.status).toBe('ACSP');
      const settled = await eventually(terminal(body.id));
      expect(settled).toMatchObject({
        status: 'RJCT',
        reason_code: 'AM04',
        reason: 'insufficient funds',
        settled_at: null,
      });
      await sleep(300);
      expect(receiver.forPayout(body.id)).toEqual([]);
    });

    it('54: still ACSP before PARTNER_SIM_SLOW_SETTLE_MS, then ACSC through the callback', async () => {
      const started = Date.now();
      const { body } = await submit(sim, newKey(), pixPayout('4054', receiver.url));
      expect(body.status).toBe('ACSP');
      await sleep(300);
      expect((await poll(body.id)).status).toBe('ACSP');
      expect(receiver.forPayout(body.id)).toEqual([]);
      const [callback] = await eventually(() => {
        const got = receiver.forPayout(body.id);
        return got.length > 0 ? got : undefined;
      });
      expect(callback!.receivedAt - started).toBeGreaterThanOrEqual(590);
      expect(callback!.signature.ok).toBe(true);
      expect(callback!.payout.status).toBe('ACSC');
    });
  });

  it.each(RAILS.filter((rail) => rail !== 'pix'))(
    '%s: accepts its currency, answers its rail reference and settles',
    async (rail) => {
      const { status, body } = await submit(
        sim,
        newKey(),
        pixPayout('777', receiver.url, {
          rail,
          amount: { currency: RAIL_CURRENCY[rail], amount_minor: '777' },
          creditor: { name: 'Comercio', account: '0000003100010000000001', account_type: 'cbu_cvu' },
          callback_url: `${receiver.url}/v1/partner/callbacks/${rail}`,
        }),
      );
      expect(status).toBe(201);
      expect(body.reference).toMatch(REFERENCE_PATTERNS[rail]);
      const [callback] = await eventually(() => {
        const got = receiver.forPayout(body.id);
        return got.length > 0 ? got : undefined;
      });
      expect(callback!.path).toBe(`/v1/partner/callbacks/${rail}`);
      expect(callback!.payout).toMatchObject({ rail, status: 'ACSC', reference: body.reference });
    },
  );

  describe('polling', () => {
    it('finds a payout by id and by idempotency key, and answers 404 when the submission never landed', async () => {
      const key = newKey();
      const { body: created } = await submit(sim, key, pixPayout('1000', receiver.url));
      const byKey = await call<PayoutResource>(
        sim,
        'GET',
        `/v1/payouts?idempotency_key=${encodeURIComponent(key)}`,
      );
      expect(byKey.status).toBe(200);
      expect(byKey.body.id).toBe(created.id);
      const found = await poll(created.id);
      expect(found.idempotency_key).toBe(key);
      // The originator is recorded as submitted and shown, so a test can see what we were told.
      expect(found.debtor).toEqual(pixPayout('1000', receiver.url).debtor);

      const missing = await call(sim, 'GET', `/v1/payouts?idempotency_key=${newKey()}`);
      expect(missing.status).toBe(404);
      expect(missing.contentType).toMatch(/^application\/problem\+json/);
      expect(missing.body).toMatchObject({ status: 404, code: 'payout_not_found' });
      expect((await call(sim, 'GET', '/v1/payouts/pp_unknown')).body).toMatchObject({
        code: 'payout_not_found',
      });
      expect((await call(sim, 'GET', '/v1/payouts')).body).toMatchObject({
        status: 400,
        code: 'invalid_request',
      });
    });
  });

  describe('idempotency', () => {
    it('the same key and body twice answer the same payout (201 then 200), created once', async () => {
      const key = newKey();
      const body = pixPayout('5000', receiver.url);
      const first = await submit(sim, key, body);
      // Same content, keys in another order: still the same request.
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const second = await submit(sim, key, reordered);
      expect(first.status).toBe(201);
      expect(second.status).toBe(200);
      expect(second.body.id).toBe(first.body.id);
      expect(second.body.reference).toBe(first.body.reference);
      const stats = await call<{ submissions: Record<string, number> }>(sim, 'GET', '/_sim/stats');
      expect(stats.body.submissions[key]).toBe(1);
      // One payout, hence one callback.
      await eventually(() => (receiver.forPayout(first.body.id).length > 0 ? true : undefined));
      await sleep(200);
      expect(receiver.forPayout(first.body.id)).toHaveLength(1);
    });

    it('the same key with another body is a 409 idempotency_conflict and changes nothing', async () => {
      const key = newKey();
      const first = await submit(sim, key, pixPayout('5000', receiver.url));
      const conflict = await submit(sim, key, pixPayout('5001', receiver.url));
      expect(conflict.status).toBe(409);
      expect(conflict.body).toMatchObject({
        code: 'idempotency_conflict',
        status: 409,
        payout_id: first.body.id,
      });
      expect((await poll(first.body.id)).amount.amount_minor).toBe('5000');
      const stats = await call<{ submissions: Record<string, number> }>(sim, 'GET', '/_sim/stats');
      expect(stats.body.submissions[key]).toBe(1);
    });

    it('50 concurrent submissions with one key create exactly one payout', async () => {
      const key = newKey();
      const body = pixPayout('6000', receiver.url);
      const answers = await Promise.all(Array.from({ length: 50 }, () => submit(sim, key, body)));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(49);
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      const stats = await call<{ submissions: Record<string, number> }>(sim, 'GET', '/_sim/stats');
      expect(stats.body.submissions[key]).toBe(1);
    });
  });

  describe('refusals', () => {
    it('401 without the bearer key or with another one', async () => {
      for (const authorization of ['', `Bearer ${SIM_API_KEY}x`, SIM_API_KEY, 'Bearer ']) {
        const answer = await call(sim, 'GET', '/v1/payouts/pp_x', { headers: { authorization } });
        expect(answer.status).toBe(401);
        expect(answer.body).toMatchObject({ code: 'unauthorized' });
      }
    });

    it('400 without an Idempotency-Key, and creates nothing', async () => {
      const keysBefore = Object.keys(
        (await call<{ submissions: object }>(sim, 'GET', '/_sim/stats')).body.submissions,
      );
      const answer = await call(sim, 'POST', '/v1/payouts', { body: pixPayout('100', receiver.url) });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'idempotency_key_missing' });
      const keysAfter = Object.keys(
        (await call<{ submissions: object }>(sim, 'GET', '/_sim/stats')).body.submissions,
      );
      expect(keysAfter).toEqual(keysBefore);
    });

    it('400 invalid_request for a malformed body, naming the problem', async () => {
      const cases: Record<string, unknown>[] = [
        pixPayout('12.50', receiver.url),
        pixPayout('0', receiver.url),
        pixPayout('100', receiver.url, { rail: 'swift' }),
        pixPayout('100', receiver.url, { callbackUrl: 'http://typo' }),
        { ...pixPayout('100', receiver.url), debtor: { name: 'QR Payout Ltda', account: '1' } },
        // An old-style debtor (tax_id, no document) and an originator that contradicts the rail.
        { ...pixPayout('100', receiver.url), debtor: { name: 'A', account: '1', tax_id: '11222333000181' } },
        {
          ...pixPayout('100', receiver.url),
          debtor: {
            name: 'A',
            account: '1',
            residency: 'resident',
            document: { type: 'tax_id', number: '20162475860', issuing_country: 'AR' },
          },
        },
      ];
      for (const body of cases) {
        const answer = await submit(sim, newKey(), body);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ code: 'invalid_request', detail: expect.any(String) });
      }
    });

    it('400 currency_not_supported when the currency is not the rail’s', async () => {
      const answer = await submit(
        sim,
        newKey(),
        pixPayout('100', receiver.url, { amount: { currency: 'ARS', amount_minor: '100' } }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'currency_not_supported' });
    });

    it('415 for a body that is not JSON', async () => {
      const answer = await call(sim, 'POST', '/v1/payouts', {
        body: 'rail=pix',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': newKey() },
      });
      expect(answer.status).toBe(415);
      expect(answer.body).toMatchObject({ code: 'unsupported_media_type' });
    });

    it('keeps /_sim/faults closed without PARTNER_SIM_FAULTS=true, but serves stats', async () => {
      const answer = await call(sim, 'POST', '/_sim/faults', {
        body: { submit: [{ kind: 'error_before_accept' }] },
      });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'faults_disabled' });
      const stats = await call<{ requests: number }>(sim, 'GET', '/_sim/stats');
      expect(stats.status).toBe(200);
      expect(stats.body.requests).toBeGreaterThan(0);
    });
  });
});
