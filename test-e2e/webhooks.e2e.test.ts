// Webhooks end to end. Every deployable runs as its own process against real PostgreSQL,
// Redis and Kafka: payout's outbox → Kafka → the webhook dispatcher → deliveries → the worker →
// signed POSTs to a local receiver that checks each signature with the integrators' helper AND a
// plain HMAC. Each sandbox outcome reaches exactly the subscribed targets; replay and its refusals
// go through the public API; kill -9 of the webhook service mid-attempt and between the
// dispatcher's database commit and its offset commit loses nothing and duplicates no delivery.
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import pg from 'pg';
import { DISPATCHED_CHANNEL } from '../services/webhook/src/deliveries/dispatcher';
import { type ManagedProcess, type System, startSystem, type TestTenant } from './harness';
import { type ApiResponse, call, UUID } from './support/http';
import type { PublicTransaction } from './support/pay';
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(180_000);

// How long after a delivery a duplicate would have shown up (retries run at scale 0.0001).
const DUPLICATE_WINDOW_MS = 2_000;
// A webhook process started with this env SIGKILLs itself between the dispatcher's database commit
// and its offset commit (support/kill-after-dispatch.mts, a preload; the service has no such hook).
const KILL_AFTER_DISPATCH: NodeJS.ProcessEnv = {
  NODE_OPTIONS: `--import ${pathToFileURL(path.join(__dirname, 'support', 'kill-after-dispatch.mts')).href}`,
  KILL_AFTER_DISPATCH_CHANNEL: DISPATCHED_CHANNEL,
};
const ALL_TOKEN = `Bearer e2e-${randomBytes(8).toString('hex')}`;
const FAILED_ONLY_KEY = `key-${randomBytes(8).toString('hex')}`;

let system: System;
let tenant: TestTenant;
let other: TestTenant;
let receiver: WebhookReceiver;
let db: pg.Pool;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  system = await startSystem({
    // …54 settles through its callback after 3 s: after pay answered `processing`.
    partnerSimEnv: { PARTNER_SIM_SLOW_SETTLE_MS: '3000' },
    serviceEnv: { payout: { EXECUTE_WAIT_MS: '2000', POLL_INTERVAL_MS: '200' } },
  });
  tenant = await system.createTenant(`e2e-webhooks-${randomBytes(4).toString('hex')}`, 1_000);
  other = await system.createTenant(`e2e-webhooks-other-${randomBytes(4).toString('hex')}`, 1_000);
  receiver.setSecrets([tenant.signingSecret]);
  await system.admin.createWebhookEndpoint({
    endpoint: {
      tenantId: tenant.tenantId,
      url: `${receiver.url}/all`,
      eventTypes: ['*'],
      headers: [{ name: 'Authorization', value: ALL_TOKEN }],
    },
  });
  await system.admin.createWebhookEndpoint({
    endpoint: {
      tenantId: tenant.tenantId,
      url: `${receiver.url}/failed-only`,
      eventTypes: ['transaction.failed'],
      headers: [{ name: 'X-Api-Key', value: FAILED_ONLY_KEY }],
    },
  });
  db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
}, 240_000);

afterAll(async () => {
  await db?.end();
  await system?.stop();
  await receiver?.close();
}, 60_000);

function pay(amount: number, callbackPath: string, as: TestTenant = tenant): Promise<ApiResponse> {
  return call(system.gatewayUrl, '/v1/pay', {
    apiKey: as.apiKey,
    body: JSON.stringify({
      qr_string: PIX_WITHOUT_AMOUNT,
      amount,
      ...PAYER,
      callback_url: `${receiver.url}${callbackPath}`,
    }),
    contentType: 'application/json',
    headers: { 'idempotency-key': randomUUID() },
  });
}

async function terminal(id: string, timeoutMs = 20_000): Promise<PublicTransaction> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(system.gatewayUrl, `/v1/transactions/${id}`, { apiKey: tenant.apiKey });
    const txn = res.json?.transaction as PublicTransaction;
    if (txn.status === 'completed' || txn.status === 'failed' || Date.now() > deadline) return txn;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function transactionIdOf(answer: ApiResponse): string {
  const txn = answer.json?.transaction as PublicTransaction | undefined;
  if (!txn) throw new Error(`pay answered ${answer.status}: ${answer.text}`);
  return txn.id;
}

const of = (txnId: string) => (r: ReceivedWebhook) => r.envelope.data?.transaction_id === txnId;

function onlyWebhookProcess(): ManagedProcess {
  const running = system.processes.filter((p) => p.name.startsWith('webhook-') && !p.hasExited());
  if (running.length !== 1) throw new Error(`expected one running webhook process, found ${running.length}`);
  return running[0]!;
}

async function deliveryRowsOf(txnId: string): Promise<Array<{ endpoint_id: string | null; url: string }>> {
  const { rows } = await db.query<{ endpoint_id: string | null; url: string }>(
    'SELECT endpoint_id, url FROM webhook.deliveries WHERE transaction_id = $1 ORDER BY url',
    [txnId],
  );
  return rows;
}

async function deliveriesOf(txnId: string, as: TestTenant = tenant) {
  const res = await call(system.gatewayUrl, `/v1/webhook-deliveries?transaction_id=${txnId}`, {
    apiKey: as.apiKey,
  });
  expect(res.status).toBe(200);
  return res.json?.deliveries as Array<Record<string, unknown>>;
}

describe('each sandbox outcome reaches exactly the subscribed targets, signed', () => {
  // docs/api/sandbox.md "Test amounts": the amount's last two digits pick the outcome and the
  // path that settles it.
  const outcomes: Array<[string, number, 'completed' | 'failed']> = [
    ['completed through the partner callback', 10.0, 'completed'],
    ['failed at once by the partner (AC03)', 10.51, 'failed'],
    ['completed, found by polling', 10.52, 'completed'],
    ['failed, found by polling', 10.53, 'failed'],
    ['completed through a late callback (pay answered processing)', 10.54, 'completed'],
  ];

  it.each(outcomes)('%s', async (_name, amount, status) => {
    const answer = await pay(amount, '/callback');
    expect(answer.status).toBe(200);
    const txn = await terminal(transactionIdOf(answer));
    expect(txn.status).toBe(status);
    const expectedPaths = status === 'failed' ? ['/all', '/callback', '/failed-only'] : ['/all', '/callback'];

    await receiver.waitFor((all) => all.filter(of(txn.id)).length >= expectedPaths.length);
    await new Promise((resolve) => setTimeout(resolve, DUPLICATE_WINDOW_MS));
    const got = receiver.received.filter(of(txn.id));
    expect(got.map((r) => r.path).sort()).toEqual(expectedPaths);

    const eventType = `transaction.${status}`;
    const eventId = got[0]!.envelope.event_id;
    expect(eventId).toMatch(UUID);
    for (const request of got) {
      expect(request.helperVerified).toBe(true);
      expect(request.plainVerified).toBe(true);
      // Both paths, every target: the same event and the same bytes (docs/api/webhooks.md "The event").
      expect(request.envelope.event_id).toBe(eventId);
      expect(request.rawBody.equals(got[0]!.rawBody)).toBe(true);
      expect(request.headers['x-event-id']).toBe(eventId);
      expect(request.headers['x-event-type']).toBe(eventType);
      expect(request.envelope).toMatchObject({ schema_version: '1', event_type: eventType });
      // data mirrors the stored transaction (docs/api/webhooks.md "The event").
      expect(request.envelope.data).toEqual({
        transaction_id: txn.id,
        instruction_id: txn.instructionId,
        status: txn.status,
        result: txn.result,
        error: txn.error,
      });
    }
    // Registered endpoints get their custom headers; callback_url gets none
    // (docs/api/webhooks.md "Custom headers").
    const byPath = Object.fromEntries(got.map((r) => [r.path, r]));
    expect(byPath['/all']!.headers.authorization).toBe(ALL_TOKEN);
    expect(byPath['/all']!.headers['x-api-key']).toBeUndefined();
    expect(byPath['/callback']!.headers.authorization).toBeUndefined();
    expect(byPath['/callback']!.headers['x-api-key']).toBeUndefined();
    if (status === 'failed') expect(byPath['/failed-only']!.headers['x-api-key']).toBe(FAILED_ONLY_KEY);

    // The operations API shows one delivered delivery per target.
    const listed = await deliveriesOf(txn.id);
    expect(listed).toHaveLength(expectedPaths.length);
    for (const delivery of listed) {
      expect(delivery).toMatchObject({
        status: 'delivered',
        attempts: 1,
        event_id: eventId,
        event_type: eventType,
      });
    }
    expect(listed.filter((d) => d.endpoint_id === null).map((d) => d.url)).toEqual([
      `${receiver.url}/callback`,
    ]);
  });
});

describe('replay through the public API (docs/api/webhooks.md "Delivery states", "Webhook deliveries")', () => {
  it('re-sends a delivered delivery with the same event_id; refuses one in flight; hides another tenant’s', async () => {
    const answer = await pay(11.0, '/callback');
    const txn = await terminal(transactionIdOf(answer));
    await receiver.waitFor((all) => all.filter(of(txn.id)).length >= 2);
    const delivered = (await deliveriesOf(txn.id)).find((d) => d.endpoint_id === null)!;
    await (async () => {
      const deadline = Date.now() + 10_000;
      while ((await deliveriesOf(txn.id)).find((d) => d.id === delivered.id)?.status !== 'delivered') {
        if (Date.now() > deadline) throw new Error('delivery never delivered');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const before = receiver.at('/callback').filter(of(txn.id)).length;
    const replay = await call(system.gatewayUrl, `/v1/webhook-deliveries/${delivered.id}/replay`, {
      apiKey: tenant.apiKey,
      method: 'POST',
    });
    expect(replay.status).toBe(200);
    expect(replay.json?.delivery).toMatchObject({ id: delivered.id, status: 'pending', attempts: 0 });
    await receiver.waitFor(() => receiver.at('/callback').filter(of(txn.id)).length === before + 1);
    const resent = receiver.at('/callback').filter(of(txn.id));
    expect(resent.at(-1)!.envelope.event_id).toBe(resent[0]!.envelope.event_id);
    expect(resent.at(-1)!.plainVerified).toBe(true);

    // Another tenant's key: the same 404 as an unknown id, for reads and replays.
    for (const [method, path] of [
      ['GET', `/v1/webhook-deliveries/${delivered.id}`],
      ['POST', `/v1/webhook-deliveries/${delivered.id}/replay`],
    ] as const) {
      const res = await call(system.gatewayUrl, path, { apiKey: other.apiKey, method });
      expect(res.status).toBe(404);
      expect(res.json?._tag).toBe('NotFoundError');
    }

    // In flight: the receiver holds its answer, so the delivery stays delivering meanwhile.
    receiver.answer('/hold', () => ({ status: 200, holdMs: 1_500 }));
    const held = await pay(12.0, '/hold');
    const heldTxn = await terminal(transactionIdOf(held));
    await receiver.waitFor(() => receiver.at('/hold').filter(of(heldTxn.id)).length >= 1);
    const inFlight = (await deliveriesOf(heldTxn.id)).find((d) => d.endpoint_id === null)!;
    const refused = await call(system.gatewayUrl, `/v1/webhook-deliveries/${inFlight.id}/replay`, {
      apiKey: tenant.apiKey,
      method: 'POST',
    });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ _tag: 'DeliveryInFlight', type: 'DeliveryInFlight' });
  });
});

describe('kill -9 of the webhook service', () => {
  async function restartWebhook(extraEnv: NodeJS.ProcessEnv = {}) {
    const port = new URL(system.serviceUrls.webhook).port;
    return system.startService('webhook', { GRPC_PORT: port, ...extraEnv });
  }

  it('mid-attempt: the lapsed lease is claimed again and every target still gets the event once as a row', async () => {
    // The first request to /crash is held; the webhook process is killed while it waits.
    receiver.answer('/crash', (nth) => (nth === 1 ? { status: 200, holdMs: 10_000 } : { status: 200 }));
    const answer = await pay(13.0, '/crash');
    const txn = await terminal(transactionIdOf(answer));
    await receiver.waitFor(() => receiver.at('/crash').filter(of(txn.id)).length >= 1);
    onlyWebhookProcess().child.kill('SIGKILL');
    await onlyWebhookProcessExit();
    await restartWebhook();

    // At least once: /crash gets it again after the lease lapses; /all got it already.
    await receiver.waitFor(() => receiver.at('/crash').filter(of(txn.id)).length >= 2, 30_000);
    await receiver.waitFor((all) => all.filter((r) => r.path === '/all').some(of(txn.id)));
    const rows = await deliveryRowsOf(txn.id);
    expect(rows.map((r) => r.url).sort()).toEqual([`${receiver.url}/all`, `${receiver.url}/crash`]);
    const listed = await deliveriesOf(txn.id);
    expect(listed.every((d) => d.status === 'delivered')).toBe(true);
  });

  it('between the dispatcher’s database commit and its offset commit: redelivered, nothing created twice', async () => {
    // A webhook process that SIGKILLs itself right after committing the first event's deliveries.
    onlyWebhookProcess().child.kill('SIGKILL');
    await onlyWebhookProcessExit();
    const faulty = await restartWebhook({
      ...KILL_AFTER_DISPATCH,
      WEBHOOK_WORKER_ENABLED: 'false',
    });
    const answer = await pay(14.0, '/after-crash');
    const txn = await terminal(transactionIdOf(answer));
    expect(await faulty.process.exited).toBe('SIGKILL');
    // The rows were committed before the crash; the offset was not.
    expect(await deliveryRowsOf(txn.id)).toHaveLength(2);

    await restartWebhook();
    await receiver.waitFor((all) => all.filter(of(txn.id)).length >= 2, 30_000);
    await new Promise((resolve) => setTimeout(resolve, DUPLICATE_WINDOW_MS));
    // The redelivered message found its deliveries there: still one per target.
    const rows = await deliveryRowsOf(txn.id);
    expect(rows.map((r) => r.url).sort()).toEqual([`${receiver.url}/after-crash`, `${receiver.url}/all`]);
    expect(
      receiver.received
        .filter(of(txn.id))
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/after-crash', '/all']);
  });
});

async function onlyWebhookProcessExit(): Promise<void> {
  const dying = system.processes.filter((p) => p.name.startsWith('webhook-'));
  await Promise.all(dying.map((p) => p.exited));
}
