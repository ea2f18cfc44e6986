// Nothing stuck: kill -9 of the partner simulator and of payout with payouts in flight.
// The simulator journals its payouts (PARTNER_SIM_STATE_FILE, set by the harness), so once
// restarted it still knows what it accepted and settles what fell due meanwhile; a payout it never
// received is failed with AB06 at the settlement horizon; while it is down, every transaction past
// the horizon is listed by `payoutctl transactions stuck`. None stays silently processing.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type ManagedProcess, runPayoutctl, type System, startSystem, type TestTenant } from './harness';
import type { ApiResponse } from './support/http';
import { type PublicTransaction, payPix } from './support/pay';
import { eventually, onlyRunning } from './support/processes';

jest.setTimeout(240_000);

const HORIZON_MS = 12_000;
const SLOW_SETTLE_MS = 5_000;

let system: System;
let tenant: TestTenant;
let db: pg.Pool;

beforeAll(async () => {
  system = await startSystem({
    partnerSimEnv: { PARTNER_SIM_SLOW_SETTLE_MS: String(SLOW_SETTLE_MS) },
    serviceEnv: {
      payout: {
        EXECUTE_WAIT_MS: '1000',
        POLL_INTERVAL_MS: '200',
        POLL_LEASE_MS: '3000',
        POLL_BACKOFF_MAX_MS: '2000',
        PARTNER_TIMEOUT_MS: '1000',
        SETTLEMENT_HORIZON_PIX_MS: String(HORIZON_MS),
      },
    },
  });
  tenant = await system.createTenant(`e2e-stuck-${randomBytes(4).toString('hex')}`, 1_000);
  db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
}, 240_000);

afterAll(async () => {
  await db?.end();
  await system?.stop();
}, 60_000);

async function kill9(proc: ManagedProcess): Promise<void> {
  proc.child.kill('SIGKILL');
  expect(await proc.exited).toBe('SIGKILL');
}

const pay = (amount: number): Promise<ApiResponse> => payPix(system.gatewayUrl, tenant.apiKey, amount);

type Stored = { id: string; status: string; error_code: string | null };
async function stored(ids: string[]): Promise<Stored[]> {
  const { rows } = await db.query<Stored>(
    'SELECT id, status, error_code FROM payout.transactions WHERE id = ANY($1) ORDER BY id',
    [ids],
  );
  return rows;
}

const stuckIds = async (): Promise<string[]> => {
  const out = await runPayoutctl(
    ['transactions', 'stuck', '--tenant', tenant.tenantId],
    system.adminUrl,
    system.adminToken,
  );
  return (out.transactions as { id: string }[]).map((t) => t.id).sort();
};

const TERMINAL = new Set(['completed', 'failed']);

describe('kill -9 of the partner simulator and of payout with payouts in flight', () => {
  it('every transaction ends terminal, and is listed as stuck while it cannot', async () => {
    // In flight at the partner: two settle late (…54, with callback), one by polling only (…52).
    const accepted: string[] = [];
    for (const amount of [40.54, 41.54, 42.52]) {
      const answer = await pay(amount);
      expect(answer.status).toBe(200);
      const txn = answer.json?.transaction as PublicTransaction;
      expect(['processing', 'completed']).toContain(txn.status);
      accepted.push(txn.id);
    }

    await kill9(onlyRunning(system, 'partner-sim-'));
    // Submitted while the partner is down: it never receives it.
    const unreceived = await pay(43.1);
    expect(unreceived.status).toBe(200);
    const lost = (unreceived.json!.transaction as PublicTransaction).id;
    expect((await stored([lost]))[0]!.status).toBe('pending');

    const port = new URL(system.serviceUrls.payout).port;
    await kill9(onlyRunning(system, 'payout-'));
    await system.startService('payout', { GRPC_PORT: port });

    // Past the horizon with the partner still down: whatever is not terminal is listed.
    const all = [...accepted, lost].sort();
    await new Promise((resolve) => setTimeout(resolve, HORIZON_MS));
    const live = (await stored(all)).filter((t) => !TERMINAL.has(t.status)).map((t) => t.id);
    expect(live).toContain(lost);
    expect(await stuckIds()).toEqual(expect.arrayContaining(live));

    // The partner comes back with its journal: what it accepted settles (its …54 fell due while it
    // was down), and what it never received is failed with AB06 at the next look.
    await system.restartPartnerSim();
    const final = await eventually(
      () => stored(all),
      (rows) => rows.every((t) => TERMINAL.has(t.status)),
      60_000,
    );
    expect(final.filter((t) => accepted.includes(t.id)).map((t) => t.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    expect(final.find((t) => t.id === lost)).toMatchObject({ status: 'failed', error_code: 'AB06' });
    expect(await stuckIds()).toEqual([]);
  });
});
