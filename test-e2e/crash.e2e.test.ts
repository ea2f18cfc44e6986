// Kill -9 of the payout process after the partner accepted a payout and before its
// callback. After payout restarts on the same port the transaction still settles (the simulator's
// callback retries or the polling worker) and exactly one event reaches Kafka, with one partner
// submission. Every deployable and the partner simulator run as separate processes against real
// PostgreSQL, Redis and Kafka.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { testInfra } from '@qr-payout/test-kit/infra';
import pg from 'pg';
import { type ManagedProcess, type System, startSystem, type TestTenant } from './harness';
import { type ApiResponse, call } from './support/http';
import { type PublicTransaction, payPix, publicViewOfEvent, simStats, specFieldsOf } from './support/pay';
import { eventually, onlyRunning } from './support/processes';
import { startTransactionEventReader, type TransactionEventReader } from './support/transaction-events';

jest.setTimeout(180_000);

const SLOW_SETTLE_MS = 4_000;
// A crashed execute's pending row is the dead process's for this long before a worker resumes it.
const POLL_LEASE_MS = 3_000;
const DUPLICATE_WINDOW_MS = 3_000;
const CALLBACK_ATTEMPT_FAILED = /partner-sim callback (refused|failed)/;

let system: System;
let tenant: TestTenant;
let reader: TransactionEventReader;
let db: pg.Pool;
let payout: ManagedProcess;

beforeAll(async () => {
  reader = await startTransactionEventReader(testInfra.kafkaBrokers);
  system = await startSystem({
    partnerSimEnv: { PARTNER_SIM_SLOW_SETTLE_MS: String(SLOW_SETTLE_MS), PARTNER_SIM_FAULTS: 'true' },
    serviceEnv: {
      payout: { EXECUTE_WAIT_MS: '2000', POLL_INTERVAL_MS: '200', POLL_LEASE_MS: String(POLL_LEASE_MS) },
    },
  });
  tenant = await system.createTenant(`e2e-crash-${randomBytes(4).toString('hex')}`, 1_000);
  db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
  payout = onlyRunning(system, 'payout-');
}, 240_000);

afterAll(async () => {
  await fetch(`${system?.partnerSimUrl}/_sim/faults`, { method: 'DELETE' }).catch(() => undefined);
  await db?.end();
  await reader?.stop();
  await system?.stop();
}, 60_000);

const pay = (amount: number): Promise<ApiResponse> => payPix(system.gatewayUrl, tenant.apiKey, amount);

async function readTransaction(id: string): Promise<PublicTransaction | undefined> {
  const res = await call(system.gatewayUrl, `/v1/transactions/${id}`, { apiKey: tenant.apiKey });
  return res.status === 200 ? (res.json?.transaction as PublicTransaction) : undefined;
}

async function storedState(txnId: string): Promise<{ status: string; events: number }> {
  const { rows } = await db.query<{ status: string; events: string }>(
    `SELECT t.status, (SELECT count(*) FROM payout.outbox_events o WHERE o.message_key = t.id) AS events
       FROM payout.transactions t WHERE t.id = $1`,
    [txnId],
  );
  return { status: rows[0]?.status ?? 'missing', events: Number(rows[0]?.events ?? -1) };
}

/** kill -9: no shutdown hook runs, nothing is drained or flushed. */
async function killPayout(): Promise<void> {
  payout.child.kill('SIGKILL');
  expect(await payout.exited).toBe('SIGKILL');
}

/** Another payout process on the port the gateway already points at. */
async function restartPayout(): Promise<void> {
  const port = new URL(system.serviceUrls.payout).port;
  const restarted = await system.startService('payout', { GRPC_PORT: port });
  payout = restarted.process;
}

/** Waits until the simulator has logged a callback attempt that payout (being down) did not take. */
async function callbackAttemptFailedAfter(logOffset: number): Promise<void> {
  const sim = onlyRunning(system, 'partner-sim-');
  await eventually(
    async () => readFileSync(sim.logFile, 'utf8').slice(logOffset),
    (log) => CALLBACK_ATTEMPT_FAILED.test(log),
    SLOW_SETTLE_MS + 10_000,
    100,
  );
}

const logLength = () => readFileSync(onlyRunning(system, 'partner-sim-').logFile, 'utf8').length;

async function expectSettledOnceAfterRestart(txnId: string, amountMinor: bigint): Promise<void> {
  const settled = await eventually(
    () => readTransaction(txnId),
    (txn) => txn?.status === 'completed',
    60_000,
    100,
  );
  await reader.waitForEvents(txnId, 15_000);
  await new Promise((resolve) => setTimeout(resolve, DUPLICATE_WINDOW_MS));
  const events = reader.eventsOf(txnId);
  expect(events).toHaveLength(1);
  expect(events[0]!.key).toBe(txnId);
  expect(events[0]!.headers['event-type']).toBe('transaction.completed');
  expect(settled).toBeDefined();
  expect(publicViewOfEvent(events[0]!.event)).toEqual(specFieldsOf(settled!));
  expect(events[0]!.event.transaction?.amount?.amountMinor).toBe(amountMinor);
  expect(await storedState(txnId)).toEqual({ status: 'completed', events: 1 });
  expect((await simStats(system.partnerSimUrl)).submissions[txnId]).toBe(1);
}

describe('kill -9 of payout between the partner accepting and the callback', () => {
  it('a processing payout (…54): the callback comes while payout is down; after restart it completes once', async () => {
    const answer = await pay(30.54);
    expect(answer.status).toBe(200);
    const txn = answer.json?.transaction as PublicTransaction;
    expect(txn.status).toBe('processing');
    expect((await simStats(system.partnerSimUrl)).submissions[txn.id]).toBe(1);
    expect(await storedState(txn.id)).toEqual({ status: 'processing', events: 0 });

    const logOffset = logLength();
    await killPayout();
    // The partner settles while payout is dead: its callback reaches the gateway and fails.
    await callbackAttemptFailedAfter(logOffset);
    expect(await storedState(txn.id)).toEqual({ status: 'processing', events: 0 });

    await restartPayout();
    await expectSettledOnceAfterRestart(txn.id, 3054n);
  });

  it('a submission whose answer never came back (pending row, payout killed mid-execute): resumed, one payout, one event', async () => {
    // The partner creates the payout but holds its answer: payout is killed while waiting for it.
    const faults = await fetch(`${system.partnerSimUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ submit: [{ kind: 'timeout_after_accept', ms: 30_000 }] }),
    });
    expect(faults.status).toBe(200);
    const before = await simStats(system.partnerSimUrl);
    const answer = pay(30.1);
    const newKeys = await eventually(
      async () => {
        const { submissions } = await simStats(system.partnerSimUrl);
        return Object.keys(submissions).filter((key) => before.submissions[key] === undefined);
      },
      (keys) => keys.length > 0,
      20_000,
      100,
    );
    expect(newKeys).toHaveLength(1);
    const txnId = newKeys[0]!;
    expect(await storedState(txnId)).toEqual({ status: 'pending', events: 0 });

    const logOffset = logLength();
    await killPayout();
    // The gateway's pay call loses its payout mid-call: a retryable error, nothing invented.
    const lost = await answer;
    expect(lost.status).toBeGreaterThanOrEqual(500);
    // The payout settled at the partner (150 ms) and its callback failed against the dead payout.
    await callbackAttemptFailedAfter(logOffset);
    expect(await storedState(txnId)).toEqual({ status: 'pending', events: 0 });

    await restartPayout();
    await expectSettledOnceAfterRestart(txnId, 3010n);
  });
});
