import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestPartnerSim } from '@qr-payout/test-kit/partner-sim';
import { eventually } from '@qr-payout/test-kit/wait';
import type { PayoutResource, RunningPartnerSim } from '../src/index';
import { type CallbackReceiver, call, newKey, pixPayout, startCallbackReceiver, submit } from './harness';

// PARTNER_SIM_STATE_FILE (README "Persistence"): a simulator started again on the same file knows
// every payout it accepted, and settles the ones still in process when they were due.

// Starting a simulator twice takes seconds on a loaded 2-core machine: more than jest's default.
jest.setTimeout(30_000);

describe('partner-sim payouts across restarts', () => {
  let dir: string;
  let receiver: CallbackReceiver;
  const running: RunningPartnerSim[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'partner-sim-state-'));
    receiver = await startCallbackReceiver();
  });
  afterAll(async () => {
    await Promise.all(running.map((sim) => sim.close()));
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(file: string, port = '0', env: NodeJS.ProcessEnv = {}): Promise<RunningPartnerSim> {
    const sim = await startTestPartnerSim({ PARTNER_SIM_STATE_FILE: file, PORT: port, ...env });
    running.push(sim);
    return sim;
  }

  it('keeps settled payouts and idempotency, and settles a due slow payout at start with its callback', async () => {
    const file = path.join(dir, 'payouts.jsonl');
    const first = await start(file);
    const settledKey = newKey();
    const settled = await submit(first, settledKey, pixPayout('12345', receiver.url));
    const slowKey = newKey();
    const slow = await submit(first, slowKey, pixPayout('1054', receiver.url));
    expect(slow.body.status).toBe('ACSP');
    await eventually(() => (receiver.forPayout(String(settled.body.id)).length > 0 ? true : undefined));
    await first.close();
    // The slow payout (600 ms) falls due while the simulator is down.
    await sleep(700);

    const second = await start(file, String(first.port));
    const again = await call<PayoutResource>(second, 'GET', `/v1/payouts/${settled.body.id}`);
    expect(again.body).toMatchObject({ status: 'ACSC', idempotency_key: settledKey });
    // The same key and body is the same payout, not a second one.
    const replay = await submit(second, settledKey, pixPayout('12345', receiver.url));
    expect(replay).toMatchObject({ status: 200, body: { id: settled.body.id } });
    const callback = await eventually(() => receiver.forPayout(String(slow.body.id))[0]);
    expect(callback.payout).toMatchObject({ status: 'ACSC', idempotency_key: slowKey });
    expect(callback.signature.ok).toBe(true);
    const byKey = await call<PayoutResource>(second, 'GET', `/v1/payouts?idempotency_key=${slowKey}`);
    expect(byKey.body.status).toBe('ACSC');
  });

  it('a slow payout not yet due keeps its remaining delay after a restart', async () => {
    const file = path.join(dir, 'pending.jsonl');
    // Long enough that a restart, however slow the machine, happens before it falls due.
    const slowSettle = { PARTNER_SIM_SLOW_SETTLE_MS: '6000' };
    const first = await start(file, '0', slowSettle);
    const key = newKey();
    const slow = await submit(first, key, pixPayout('2054', receiver.url));
    await first.close();
    const second = await start(file, '0', slowSettle);
    const right = await call<PayoutResource>(second, 'GET', `/v1/payouts/${slow.body.id}`);
    expect(right.body.status).toBe('ACSP');
    const settled = await eventually(async () => {
      const { body } = await call<PayoutResource>(second, 'GET', `/v1/payouts/${slow.body.id}`);
      return body.status === 'ACSC' ? body : undefined;
    }, 15_000);
    expect(settled.settled_at).not.toBeNull();
  });

  it('without a state file a restart forgets (unit tests and one-off runs)', async () => {
    const first = await startTestPartnerSim();
    running.push(first);
    const created = await submit(first, newKey(), pixPayout('12345', receiver.url));
    await first.close();
    const second = await startTestPartnerSim();
    running.push(second);
    const lookup = await call(second, 'GET', `/v1/payouts/${created.body.id}`);
    expect(lookup.status).toBe(404);
  });
});
