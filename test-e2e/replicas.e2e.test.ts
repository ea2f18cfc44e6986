// The system as production runs it, several replicas of every component
// (docs/testing.md "Replicas"). Two gateways, each on its own loopback address; two of each gRPC
// service on one port of two addresses, reached by the gateways (and payout, for fx) through one
// DNS name per service that the harness serves, round robin over its A records
// (docs/architecture.md "Internal load balancing"); two webhook processes in one dispatcher group.
// Pays spread over both gateways all complete, every webhook arrives signed, and each replica's own
// /metrics shows it served a share: decoder Decode, payout Pay, fx CreateQuote and ConfirmQuote
// (payout's calls, for the pays with a wallet currency), the gateways' POST /v1/pay. Then one
// payout and one gateway replica are killed (-9): pays through the other gateway go on without a
// failure, and restartReplica brings both back on their addresses and ports, where they serve again.
import { randomBytes } from 'node:crypto';
import { type ComponentName, type System, startSystem, type TestTenant } from './harness';
import { call } from './support/http';
import { scrape, total } from './support/metrics';
import { type PublicTransaction, payPix } from './support/pay';
import { eventually } from './support/processes';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(120_000);

const REPLICAS = 2;
const PAYS = 40;
const CONCURRENCY = 8;

/** What each component's replicas count as their share of the pays, from their own /metrics. */
const SHARES: Record<
  Exclude<ComponentName, 'webhook'>,
  { metric: string; labels: Record<string, string>[] }
> = {
  gateway: {
    metric: 'http_server_request_duration_seconds_count',
    labels: [{ http_route: '/v1/pay', http_request_method: 'POST' }],
  },
  decoder: {
    metric: 'rpc_server_call_duration_seconds_count',
    labels: [{ rpc_method: 'Decode', rpc_grpc_status_code: '0' }],
  },
  payout: {
    metric: 'rpc_server_call_duration_seconds_count',
    labels: [{ rpc_method: 'Pay', rpc_grpc_status_code: '0' }],
  },
  fx: {
    metric: 'rpc_server_call_duration_seconds_count',
    labels: [
      { rpc_method: 'CreateQuote', rpc_grpc_status_code: '0' },
      { rpc_method: 'ConfirmQuote', rpc_grpc_status_code: '0' },
    ],
  },
};

let system: System;
let tenant: TestTenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  system = await startSystem({
    replicas: { gateway: REPLICAS, decoder: REPLICAS, fx: REPLICAS, payout: REPLICAS, webhook: REPLICAS },
  });
  tenant = await system.createTenant(`e2e-replicas-${randomBytes(4).toString('hex')}`, 1_000);
  receiver.setSecrets([tenant.signingSecret]);
  await system.admin.createWebhookEndpoint({
    endpoint: { tenantId: tenant.tenantId, url: `${receiver.url}/all`, eventTypes: ['*'] },
  });
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
}, 60_000);

/** Each replica's count of `metric` (summed over the label sets), replica order. */
async function counts(name: ComponentName, metric: string, labels: Record<string, string>[]) {
  return Promise.all(
    system.replicas(name).map(async (replica) => {
      const samples = await scrape(replica.metricsUrl);
      return labels.reduce((sum, set) => sum + total(samples, metric, set), 0);
    }),
  );
}

async function shares(): Promise<Record<string, number[]>> {
  const entries = await Promise.all(
    Object.entries(SHARES).map(
      async ([name, { metric, labels }]) =>
        [name, await counts(name as ComponentName, metric, labels)] as const,
    ),
  );
  return Object.fromEntries(entries);
}

/** Runs `task(0 … count-1)` with at most `concurrency` at a time, results in index order. */
async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) results[i] = await task(i);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

test('pays over two of each component all complete, every webhook arrives, every replica serves a share', async () => {
  const started = Date.now();
  expect(system.gatewayUrls).toHaveLength(REPLICAS);
  expect(new Set(system.replicas('payout').map((r) => r.host)).size).toBe(REPLICAS);
  expect(system.serviceTargets.payout).toMatch(/^dns:\/\/127\.0\.0\.1:\d+\/payout\.replicas\.e2e:\d+$/);
  const before = await shares();

  // Pay i goes to gateway i mod 2; pays 0, 1, 4, 5, … convert from USD (payout asks fx for a quote
  // and confirms it), the others do not. Cents 00: completed through the partner's callback.
  const answers = await pool(PAYS, CONCURRENCY, async (i) => {
    const gatewayUrl = system.gatewayUrls[i % REPLICAS]!;
    const extra = i % 4 < 2 ? { wallet_currency: 'USD' } : {};
    const answer = await payPix(gatewayUrl, tenant.apiKey, 10 + i, extra);
    const txn = answer.json?.transaction as PublicTransaction | undefined;
    if (answer.status !== 200 || !txn) throw new Error(`pay ${i} answered ${answer.status}: ${answer.text}`);
    return txn;
  });
  const paidMs = Date.now() - started;
  const answeredCompleted = answers.filter((txn) => txn.status === 'completed').length;

  // Every pay completes (read back through the other gateway).
  for (const [i, answer] of answers.entries()) {
    const gatewayUrl = system.gatewayUrls[(i + 1) % REPLICAS]!;
    const txn = await eventually(
      async () =>
        (await call(gatewayUrl, `/v1/transactions/${answer.id}`, { apiKey: tenant.apiKey })).json
          ?.transaction as PublicTransaction,
      (t) => t?.status === 'completed' || t?.status === 'failed',
      20_000,
      100,
    );
    expect([answer.id, txn.status]).toEqual([answer.id, 'completed']);
  }

  // Every completed event arrives at the endpoint, signed.
  const ids = new Set(answers.map((txn) => txn.id));
  const completedAt = (id: string) =>
    receiver
      .at('/all')
      .filter(
        (r) => r.envelope.event_type === 'transaction.completed' && r.envelope.data?.transaction_id === id,
      );
  await receiver.waitFor(() => [...ids].every((id) => completedAt(id).length > 0), 30_000);
  for (const id of ids) {
    for (const request of completedAt(id))
      expect([id, request.helperVerified, request.plainVerified]).toEqual([id, true, true]);
  }
  const webhooksMs = Date.now() - started;

  // Every replica served a share.
  const after = await shares();
  const served = Object.fromEntries(
    Object.entries(after).map(([name, list]) => [name, list.map((n, i) => n - (before[name]![i] ?? 0))]),
  );
  const delivered = await counts('webhook', 'webhook_deliveries_total', [{ outcome: 'delivered' }]);
  console.log(
    `${PAYS} pays over ${REPLICAS} gateways in ${paidMs} ms (${answeredCompleted} answered completed, ` +
      `the rest processing then completed); every webhook by ${webhooksMs} ms\n` +
      `served per replica: ${JSON.stringify(served)}; webhook deliveries per replica: ${JSON.stringify(delivered)}`,
  );
  expect(served.gateway).toEqual([PAYS / REPLICAS, PAYS / REPLICAS]);
  expect(served.decoder!.reduce((a, b) => a + b, 0)).toBe(PAYS);
  expect(served.payout!.reduce((a, b) => a + b, 0)).toBe(PAYS);
  for (const [name, list] of Object.entries(served)) {
    for (const [index, count] of list.entries())
      expect([name, index, count > 0]).toEqual([name, index, true]);
  }
  // The callers resolved each service's name at the harness's DNS responder.
  for (const name of ['decoder', 'fx', 'payout', 'webhook'] as const) {
    expect([name, (system.dns[name]?.queries() ?? 0) > 0]).toEqual([name, true]);
  }
  // No replica died on the way.
  for (const name of ['gateway', 'decoder', 'fx', 'payout', 'webhook'] as const) {
    for (const replica of system.replicas(name))
      expect([replica.process.name, replica.process.hasExited()]).toEqual([replica.process.name, false]);
  }
});

test('a killed replica is skipped, and serves again once restarted on its address', async () => {
  const payout = system.replicas('payout')[1]!;
  const gateway = system.replicas('gateway')[1]!;
  payout.process.child.kill('SIGKILL');
  gateway.process.child.kill('SIGKILL');
  await Promise.all([payout.process.exited, gateway.process.exited]);

  // While they are down, every pay through the first gateway completes on the other payout.
  const whileDown = await pool(10, 5, (i) => payPix(system.gatewayUrl, tenant.apiKey, 100 + i));
  expect(whileDown.map((answer) => answer.status)).toEqual(new Array(10).fill(200));

  const restartedAt = Date.now();
  const [payoutAgain, gatewayAgain] = await Promise.all([
    system.restartReplica('payout', 1),
    system.restartReplica('gateway', 1),
  ]);
  const restartMs = Date.now() - restartedAt;
  expect([payoutAgain.url, payoutAgain.metricsUrl]).toEqual([payout.url, payout.metricsUrl]);
  expect([gatewayAgain.url, gatewayAgain.adminUrl]).toEqual([gateway.url, gateway.adminUrl]);
  expect(payoutAgain.process.pid).not.toBe(payout.process.pid);
  expect(system.gatewayUrls[1]).toBe(gateway.url);

  // Pays through both gateways until the restarted payout has served some (its channel's
  // reconnect backoff, grpc-js's, is the wait), each answered 200.
  let sent = 0;
  const servedAgain = await eventually(
    async () => {
      const answers = await pool(4, 4, (i) =>
        payPix(system.gatewayUrls[i % REPLICAS]!, tenant.apiKey, 200 + sent++),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      const served = await counts('payout', 'rpc_server_call_duration_seconds_count', [
        { rpc_method: 'Pay' },
      ]);
      return served[1] ?? 0;
    },
    (served) => served > 0,
    30_000,
    250,
  );
  console.log(
    `payout 1 and gateway 1 restarted in ${restartMs} ms; payout 1 served ${servedAgain} of the next ${sent} pays`,
  );
});
