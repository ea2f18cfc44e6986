import { setTimeout as sleep } from 'node:timers/promises';
import { startTestPartnerSim } from '@qr-payout/test-kit/partner-sim';
import { eventually } from '@qr-payout/test-kit/wait';
import type { PayoutResource, RunningPartnerSim, SimStatsView } from '../src/index';
import { type CallbackReceiver, call, newKey, pixPayout, startCallbackReceiver, submit } from './harness';

// Every fault kind of /_sim/faults (PARTNER_SIM_FAULTS=true) against the real simulator over
// HTTP: what the caller sees, and whether a payout exists behind it.

describe('partner-sim fault injection', () => {
  let sim: RunningPartnerSim;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    receiver = await startCallbackReceiver();
    sim = await startTestPartnerSim({ PARTNER_SIM_FAULTS: 'true' });
  });

  afterEach(async () => {
    expect((await call(sim, 'DELETE', '/_sim/faults')).status).toBe(200);
  });

  afterAll(async () => {
    await sim.close();
    await receiver.close();
  });

  const setFaults = async (plan: unknown) => {
    const answer = await call(sim, 'POST', '/_sim/faults', { body: plan });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const stats = async () => (await call<SimStatsView>(sim, 'GET', '/_sim/stats')).body;
  const byKey = (key: string) =>
    call<PayoutResource>(sim, 'GET', `/v1/payouts?idempotency_key=${encodeURIComponent(key)}`);

  it('error_before_accept: 500 and no payout; the retry creates it', async () => {
    await setFaults({ submit: [{ kind: 'error_before_accept' }] });
    const key = newKey();
    const body = pixPayout('1000', receiver.url);
    const failed = await submit(sim, key, body);
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ code: 'internal_error' });
    expect((await byKey(key)).status).toBe(404);
    expect((await stats()).submissions[key]).toBeUndefined();

    const retried = await submit(sim, key, body);
    expect(retried.status).toBe(201);
    expect((await stats()).submissions[key]).toBe(1);
  });

  it('error_after_accept: 500, yet the payout exists, settles, and the retry answers it (200)', async () => {
    await setFaults({ submit: [{ kind: 'error_after_accept' }] });
    const key = newKey();
    const body = pixPayout('1000', receiver.url);
    const failed = await submit(sim, key, body);
    expect(failed.status).toBe(500);
    const found = await byKey(key);
    expect(found.status).toBe(200);

    const retried = await submit(sim, key, body);
    expect(retried.status).toBe(200);
    expect(retried.body.id).toBe(found.body.id);
    expect((await stats()).submissions[key]).toBe(1);
    await eventually(() => (receiver.forPayout(found.body.id).length > 0 ? true : undefined));
  });

  it('timeout_after_accept: the caller gives up, the payout exists and can be found by key', async () => {
    await setFaults({ submit: [{ kind: 'timeout_after_accept', ms: 800 }] });
    const key = newKey();
    const body = pixPayout('1000', receiver.url);
    await expect(submit(sim, key, body, { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    const found = await byKey(key);
    expect(found.status).toBe(200);
    expect((await stats()).submissions[key]).toBe(1);
    // The fault was used up: the retry answers at once with the same payout.
    const started = Date.now();
    const retried = await submit(sim, key, body);
    expect(Date.now() - started).toBeLessThan(500);
    expect(retried.status).toBe(200);
    expect(retried.body.id).toBe(found.body.id);
  });

  it('timeout_after_accept held long enough still answers the payout to a patient caller', async () => {
    await setFaults({ submit: [{ kind: 'timeout_after_accept', ms: 300 }] });
    const started = Date.now();
    const answer = await submit(sim, newKey(), pixPayout('1000', receiver.url));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(answer.status).toBe(201);
  });

  it('callback drop: no callback ever arrives, polling sees the settlement', async () => {
    await setFaults({ callback: [{ kind: 'drop' }] });
    const before = await stats();
    const { body } = await submit(sim, newKey(), pixPayout('1000', receiver.url));
    const settled = await eventually(async () => {
      const payout = (await call<PayoutResource>(sim, 'GET', `/v1/payouts/${body.id}`)).body;
      return payout.status === 'ACSC' ? payout : undefined;
    });
    expect(settled.status).toBe('ACSC');
    await sleep(300);
    expect(receiver.forPayout(body.id)).toEqual([]);
    expect((await stats()).callbacks.dropped).toBe(before.callbacks.dropped + 1);
  });

  it('retries a refused callback with backoff, signing each attempt', async () => {
    receiver.answerNext('/refuse-twice', 500, 503);
    const { body } = await submit(
      sim,
      newKey(),
      pixPayout('1000', receiver.url, { callback_url: `${receiver.url}/refuse-twice` }),
    );
    const attempts = await eventually(() => {
      const got = receiver.forPayout(body.id);
      return got.length === 3 ? got : undefined;
    });
    expect(attempts.map((a) => a.signature.ok)).toEqual([true, true, true]);
    expect(new Set(attempts.map((a) => a.rawBody)).size).toBe(1);
    // PARTNER_SIM_CALLBACK_RETRY_MS=50: 50 ms, then 100 ms.
    expect(attempts[1]!.receivedAt - attempts[0]!.receivedAt).toBeGreaterThanOrEqual(45);
    expect(attempts[2]!.receivedAt - attempts[1]!.receivedAt).toBeGreaterThanOrEqual(95);
    await sleep(300);
    expect(receiver.forPayout(body.id)).toHaveLength(3);
  });

  it('gives a callback up after PARTNER_SIM_CALLBACK_ATTEMPTS attempts', async () => {
    receiver.answerNext('/refuse-always', 500, 500, 500, 500, 500);
    const before = await stats();
    const { body } = await submit(
      sim,
      newKey(),
      pixPayout('1000', receiver.url, { callback_url: `${receiver.url}/refuse-always` }),
    );
    await eventually(() => (receiver.forPayout(body.id).length === 5 ? true : undefined), 5000);
    await eventually(async () =>
      (await stats()).callbacks.failed === before.callbacks.failed + 1 ? true : undefined,
    );
    await sleep(900);
    expect(receiver.forPayout(body.id)).toHaveLength(5);
  });

  it('rates: submit_5xx=1 fails every submission; each one either landed or not, never twice', async () => {
    await setFaults({ rates: { submit_5xx: 1 } });
    const keys = Array.from({ length: 20 }, () => newKey());
    const answers = await Promise.all(keys.map((key) => submit(sim, key, pixPayout('1000', receiver.url))));
    expect(answers.map((a) => a.status)).toEqual(keys.map(() => 500));
    const landed = await Promise.all(keys.map(async (key) => (await byKey(key)).status === 200));
    const counts = (await stats()).submissions;
    keys.forEach((key, i) => {
      expect(counts[key]).toBe(landed[i] ? 1 : undefined);
    });
  });

  it('rates: submit_timeout=1 holds every answer for timeout_ms; drop_callback=1 drops every callback', async () => {
    await setFaults({ rates: { submit_timeout: 1, drop_callback: 1 }, timeout_ms: 200 });
    const started = Date.now();
    const { status, body } = await submit(sim, newKey(), pixPayout('1000', receiver.url));
    expect(status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await eventually(async () => {
      const payout = (await call<PayoutResource>(sim, 'GET', `/v1/payouts/${body.id}`)).body;
      return payout.status === 'ACSC' ? true : undefined;
    });
    await sleep(200);
    expect(receiver.forPayout(body.id)).toEqual([]);
  });

  it('latency_ms slows every /v1 request', async () => {
    await setFaults({ latency_ms: 250 });
    const started = Date.now();
    expect((await call(sim, 'GET', '/v1/payouts/pp_none')).status).toBe(404);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('shows the plan, consumes queued faults, and DELETE clears it', async () => {
    const shown = await setFaults({
      submit: [{ kind: 'error_before_accept' }, { kind: 'error_after_accept' }],
      callback: [{ kind: 'drop' }],
      rates: { drop_callback: 0.5 },
    });
    expect(shown).toEqual({
      submit: [{ kind: 'error_before_accept' }, { kind: 'error_after_accept' }],
      callback: [{ kind: 'drop' }],
      rates: { drop_callback: 0.5 },
    });
    await submit(sim, newKey(), pixPayout('1000', receiver.url));
    expect((await call(sim, 'GET', '/_sim/faults')).body).toMatchObject({
      submit: [{ kind: 'error_after_accept' }],
    });
    expect((await call(sim, 'DELETE', '/_sim/faults')).body).toEqual({ submit: [], callback: [], rates: {} });
  });

  it('refuses an unknown fault kind and impossible rates', async () => {
    for (const plan of [
      { submit: [{ kind: 'explode' }] },
      { callback: [{ kind: 'delay' }] },
      { rates: { submit_5xx: 1.5 } },
      { rates: { submit_5xx: 0.6, submit_timeout: 0.6 } },
    ]) {
      const answer = await call(sim, 'POST', '/_sim/faults', { body: plan });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'invalid_request' });
    }
  });
});

describe('partner-sim close', () => {
  it('releases an answer held by a timeout fault and settles nothing afterwards', async () => {
    const receiver = await startCallbackReceiver();
    const sim = await startTestPartnerSim({ PARTNER_SIM_FAULTS: 'true', PARTNER_SIM_SETTLE_MS: '300' });
    try {
      await call(sim, 'POST', '/_sim/faults', {
        body: { submit: [{ kind: 'timeout_after_accept', ms: 60_000 }] },
      });
      const held = submit(sim, newKey(), pixPayout('1000', receiver.url)).catch(() => undefined);
      await sleep(100);
      const started = Date.now();
      await sim.close();
      expect(Date.now() - started).toBeLessThan(2000);
      await held;
      await sleep(500);
      expect(receiver.received).toEqual([]);
    } finally {
      await sim.close();
      await receiver.close();
    }
  });
});
