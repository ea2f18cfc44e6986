// A PostgreSQL switchover while pays run. The services reach PostgreSQL through
// one address (a Toxiproxy proxy, as a cloud's or CloudNativePG's `-rw` service gives them) in
// front of a primary and a synchronous streaming standby (docs/testing.md "PostgreSQL with a
// standby"). Mid-load the standby is promoted in a planned switchover (primary stopped in fast
// mode) and the old primary rejoins as the standby; then the new primary is stopped in immediate
// mode (a crash) and the standby promoted again (a failover), and the crashed node is rewound and
// rejoins. Every pay acknowledged to the client (2xx)
// before, during or after a switch must be found afterwards, through the API and in
// payout.transactions, and end terminal; every process of the system must take pays again by
// itself: none is restarted, none exits.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import pg from 'pg';
import { firstSuccessSince, paceOpenLoop } from './faults/pay-load';
import { type PgSwitchReport, type PrivateInfra, startPrivateInfra } from './faults/private-infra';
import { type System, startSystem, type TestTenant } from './harness';
import { call } from './support/http';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(240_000);

const RATE_PER_SECOND = 8;
const CLIENT_TIMEOUT_MS = 15_000;
const RETRY_AFTER_MS = 1_000;
const STEADY_MS = 4_000; // load with a healthy primary before, between and after the switches
// Settled within a second by the simulator (docs/api/sandbox.md "Test amounts"): completed,
// failed at once (51), completed by polling (52), failed by polling (53). No slow 54s: the run
// stays short.
const CENTS = ['10', '20', '51', '52', '53', '30'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const print = (line: string) => process.stdout.write(`pg-switchover: ${line}\n`);

interface Attempt {
  n: number;
  key: string;
  sentAt: number;
  answeredAt: number;
  /** HTTP status, 0 when no answer came. */
  status: number;
  errorTag?: string;
  transactionId?: string;
  retry: boolean;
  fx: boolean;
  callback: boolean;
}

let infra: PrivateInfra;
let system: System;
let tenant: TestTenant;
let receiver: WebhookReceiver;
let db: pg.Pool;

beforeAll(async () => {
  const began = Date.now();
  infra = await startPrivateInfra(print, { pgStandby: true });
  receiver = await startWebhookReceiver();
  system = await startSystem({
    infra,
    serviceEnv: { payout: { EXECUTE_WAIT_MS: '2000', POLL_INTERVAL_MS: '200' } },
  });
  tenant = await system.createTenant(`e2e-pg-switch-${randomBytes(4).toString('hex')}`, 1_000_000);
  receiver.setSecrets([tenant.signingSecret]);
  await system.admin.createWebhookEndpoint({
    endpoint: { tenantId: tenant.tenantId, url: `${receiver.url}/all`, eventTypes: ['*'] },
  });
  db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
  db.on('error', () => undefined);
  print(
    `infrastructure and system up in ${((Date.now() - began) / 1000).toFixed(1)} s (logs ${system.logDir})`,
  );
}, 240_000);

afterAll(async () => {
  await db?.end().catch(() => undefined);
  await system?.stop();
  await receiver?.close();
  await infra?.stop();
}, 120_000);

/** A steady open-loop load: a pay every 1000/rate ms; 503 or no answer retried once, same key. */
function startLoad() {
  const attempts: Attempt[] = [];
  let stopped = false;
  const attempt = async (base: Omit<Attempt, 'sentAt' | 'answeredAt' | 'status'>, body: string) => {
    const record: Attempt = { ...base, sentAt: Date.now(), answeredAt: 0, status: 0 };
    try {
      const res = await fetch(`${system.gatewayUrl}/v1/pay`, {
        method: 'POST',
        headers: {
          'x-api-key': tenant.apiKey,
          'content-type': 'application/json',
          'idempotency-key': base.key,
        },
        body,
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      record.status = res.status;
      const json = (await res.json().catch(() => undefined)) as
        | { _tag?: string; transaction?: { id?: string } }
        | undefined;
      record.errorTag = json?._tag;
      record.transactionId = json?.transaction?.id;
    } catch {
      // No answer: status 0.
    }
    record.answeredAt = Date.now();
    attempts.push(record);
    return record;
  };
  const onePay = async (i: number) => {
    // Every third pay quotes FX (fx's database), every other one has a callback_url (webhook's).
    const fx = i % 3 === 0;
    const callback = i % 2 === 0;
    const body = JSON.stringify({
      qr_string: PIX_WITHOUT_AMOUNT,
      amount: Number(`${10 + (i % 80)}.${CENTS[i % CENTS.length]}`),
      ...PAYER,
      ...(fx ? { wallet_currency: 'USD' } : {}),
      ...(callback ? { callback_url: `${receiver.url}/callback` } : {}),
    });
    const base = { n: i, key: randomUUID(), retry: false, fx, callback };
    const first = await attempt(base, body);
    if ((first.status === 503 || first.status === 0) && !stopped) {
      await sleep(RETRY_AFTER_MS);
      await attempt({ ...base, retry: true }, body);
    }
  };
  const pacer = paceOpenLoop(RATE_PER_SECOND, onePay);
  return {
    attempts,
    async stop() {
      stopped = true;
      await pacer.stop();
    },
    firstOkSince: (since: number, timeoutMs: number) => firstSuccessSince(attempts, since, timeoutMs),
  };
}

const ok = (a: Attempt) => a.status >= 200 && a.status < 300;
const byStatus = (attempts: Attempt[]) => {
  const counts: Record<string, number> = {};
  for (const a of attempts) {
    const label = a.status === 0 ? 'no answer' : `${a.status}${a.errorTag ? ` ${a.errorTag}` : ''}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
};

/**
 * Every warn, error or fatal line of every process's log (pino JSON, level by label), grouped by
 * message and error: what the services said while their database went away and came back.
 */
function warningsByProcess(): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const proc of system.processes) {
    const groups = new Map<string, number>();
    for (const line of readFileSync(proc.logFile, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      let key: string;
      try {
        const entry = JSON.parse(line) as {
          level?: string;
          msg?: string;
          err?: { message?: string; code?: string };
        };
        if (!['warn', 'error', 'fatal'].includes(String(entry.level))) continue;
        const err = entry.err
          ? ` (${entry.err.code ?? ''}${entry.err.code ? ' ' : ''}${entry.err.message ?? ''})`
          : '';
        key = `${entry.level} ${entry.msg ?? ''}${err}`.slice(0, 240);
      } catch {
        key = `not JSON: ${line.slice(0, 200)}`; // a stack or a crash message
      }
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
    out.set(proc.name, groups);
  }
  return out;
}

interface SwitchFigures {
  report: PgSwitchReport;
  firstOk?: Attempt;
  lastOkBefore?: Attempt;
  during: Attempt[];
}

it('loses no acknowledged pay across a switchover and a failover; every process reconnects by itself', async () => {
  const processesAtStart = system.processes.map((p) => p.name);
  const load = startLoad();
  const switches: SwitchFigures[] = [];
  const runSwitch = async (doSwitch: () => Promise<PgSwitchReport>) => {
    const report = await doSwitch();
    const firstOk = await load.firstOkSince(report.repointedAt, 60_000);
    const lastOkBefore = load.attempts
      .filter((a) => ok(a) && a.answeredAt <= report.startedAt)
      .sort((a, b) => b.answeredAt - a.answeredAt)[0];
    // The window: every attempt in flight at some time between the primary's stop and the first
    // 2xx after the repoint.
    const windowEnd = firstOk?.answeredAt ?? Date.now();
    const during = load.attempts.filter((a) => a.sentAt <= windowEnd && a.answeredAt >= report.startedAt);
    switches.push({ report, firstOk, lastOkBefore, during });
    expect(firstOk).toBeDefined();
  };
  try {
    await sleep(STEADY_MS);
    // The old primary rejoins as the standby after each switch (after the failover, rewound first).
    await runSwitch(() => infra.switchoverPostgres());
    await sleep(STEADY_MS);
    await runSwitch(() => infra.failoverPostgres({ rejoin: true }));
    await sleep(STEADY_MS);
  } finally {
    await load.stop();
  }
  const lastRepoint = switches.at(-1)!.report.repointedAt;

  // Every acknowledged pay, by Idempotency-Key (a retried one counts once).
  const acknowledged = new Map<string, Attempt>();
  for (const a of load.attempts) if (ok(a) && !acknowledged.has(a.key)) acknowledged.set(a.key, a);
  const noTransaction = [...acknowledged.values()].filter((a) => !a.transactionId);

  // Found through the API and in payout.transactions, each terminal (polling settles 52/53 within
  // about a second once the load has stopped).
  const ids = [...acknowledged.values()].map((a) => a.transactionId!).filter(Boolean);
  const terminal = new Set(['completed', 'failed']);
  const deadline = Date.now() + 60_000;
  let stored = new Map<string, string>();
  for (;;) {
    const { rows } = await db.query<{ id: string; status: string }>(
      'SELECT id, status FROM payout.transactions WHERE id = ANY($1)',
      [ids],
    );
    stored = new Map(rows.map((r) => [r.id, r.status]));
    const open = ids.filter((id) => !terminal.has(stored.get(id) ?? ''));
    if (open.length === 0 || Date.now() > deadline) break;
    await sleep(500);
  }
  const lostInDb = ids.filter((id) => !stored.has(id));
  const notTerminal = ids.filter((id) => stored.has(id) && !terminal.has(stored.get(id)!));
  const lostInApi: string[] = [];
  const apiStatus = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 16) {
    await Promise.all(
      ids.slice(i, i + 16).map(async (id) => {
        const res = await call(system.gatewayUrl, `/v1/transactions/${id}`, { apiKey: tenant.apiKey });
        if (res.status !== 200) lostInApi.push(`${id}: ${res.status}`);
        else apiStatus.set(id, String((res.json?.transaction as { status?: string } | undefined)?.status));
      }),
    );
  }
  const apiDisagrees = ids.filter((id) => apiStatus.has(id) && apiStatus.get(id) !== stored.get(id));

  // Each process took work after the last switch: the gateway and payout (2xx pays), fx (a 2xx pay
  // with wallet_currency), webhook (an event of a pay sent after the switch delivered).
  const after = load.attempts.filter((a) => ok(a) && a.sentAt >= lastRepoint);
  const fxAfter = after.filter((a) => a.fx);
  const afterIds = new Set(after.map((a) => a.transactionId));
  const ofAfter = (w: { envelope: { data: Record<string, unknown> } }) =>
    afterIds.has(String(w.envelope.data.transaction_id));
  await receiver.waitFor((all) => all.some(ofAfter), 30_000).catch(() => undefined);
  const webhooksAfter = receiver.received.filter(ofAfter);
  // Every terminal transaction's event reached the tenant's endpoint for every event: the outbox
  // relay and the webhook dispatcher and worker came through the switches too.
  const delivered = (id: string) =>
    receiver
      .at('/all')
      .some(
        (w) =>
          String(w.envelope.data.transaction_id) === id &&
          w.envelope.event_type === `transaction.${stored.get(id)}`,
      );
  await receiver
    .waitFor(() => ids.every((id) => !terminal.has(stored.get(id) ?? '') || delivered(id)), 30_000)
    .catch(() => undefined);
  const webhookMissing = ids.filter((id) => terminal.has(stored.get(id) ?? '') && !delivered(id));
  const exited = system.processes.filter((p) => p.hasExited()).map((p) => p.name);
  const restarted = system.processes.map((p) => p.name).filter((name) => !processesAtStart.includes(name));

  // The figures.
  const attemptsTotal = load.attempts.filter((a) => !a.retry).length;
  print(
    `pays sent ${attemptsTotal} (${load.attempts.length} attempts with retries), acknowledged ${acknowledged.size}`,
  );
  print(
    `lost ${lostInDb.length + lostInApi.length + noTransaction.length} (not in payout.transactions ${lostInDb.length}, ` +
      `not found by GET ${lostInApi.length}, 2xx without a transaction ${noTransaction.length}); not terminal ${notTerminal.length}`,
  );
  for (const { report, firstOk, lastOkBefore, during } of switches) {
    const iso = (t: number) => new Date(t).toISOString().slice(11, 23);
    print(
      `${report.kind} :${report.from} → :${report.to}: writes unavailable ${iso(report.startedAt)} → ` +
        `${iso(report.repointedAt)} (${report.unavailableMs} ms: primary down +${report.primaryDownAt - report.startedAt} ms` +
        `${report.caughtUpAt ? `, standby caught up +${report.caughtUpAt - report.startedAt} ms` : ''}, ` +
        `writable +${report.writableAt - report.startedAt} ms)` +
        (report.rejoinedAt
          ? `; old primary streaming again as the standby +${report.rejoinedAt - report.startedAt} ms`
          : ''),
    );
    print(
      `  first 2xx after the repoint: ${firstOk ? `+${firstOk.answeredAt - report.repointedAt} ms (+${firstOk.answeredAt - report.startedAt} ms from the stop)` : 'none'}; ` +
        `clients without a 2xx for ${firstOk && lastOkBefore ? firstOk.answeredAt - lastOkBefore.answeredAt : '?'} ms`,
    );
    print(`  answers during the switch (${during.length}): ${JSON.stringify(byStatus(during))}`);
  }
  print(`webhooks: ${webhookMissing.length} terminal transactions without their event at the endpoint`);
  print(
    `after the last switch: ${after.length} 2xx pays (${fxAfter.length} with FX), ` +
      `${webhooksAfter.length} webhooks of them delivered; processes exited ${exited.length}, restarted ${restarted.length}`,
  );
  for (const [name, groups] of warningsByProcess()) {
    print(`  ${name}: ${groups.size === 0 ? 'no warn/error log line' : 'warn/error log lines:'}`);
    for (const [key, count] of groups) print(`    ${count} × ${key}`);
  }

  expect(noTransaction).toEqual([]);
  expect(lostInDb).toEqual([]);
  expect(lostInApi).toEqual([]);
  expect(notTerminal).toEqual([]);
  expect(apiDisagrees).toEqual([]);
  expect(webhookMissing).toEqual([]);
  // No answer outside the contract during a switch: 2xx, a 4xx of the pay's own, or 503.
  const outOfContract = switches
    .flatMap((s) => s.during)
    .filter((a) => a.status === 0 || (a.status >= 500 && a.status !== 503));
  expect(outOfContract.map((a) => `${a.status} ${a.errorTag ?? ''}`)).toEqual([]);
  expect(after.length).toBeGreaterThan(0);
  expect(fxAfter.length).toBeGreaterThan(0);
  expect(webhooksAfter.length).toBeGreaterThan(0);
  expect(exited).toEqual([]);
  expect(restarted).toEqual([]);
});
