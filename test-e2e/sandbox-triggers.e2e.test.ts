// POST /v1/sandbox/triggers (docs/api/sandbox.md "Triggers") through the real gateway (run
// with SANDBOX_MODE=true, as the sandbox runs it), decoder, payout, partner simulator and webhook
// service on real PostgreSQL and Kafka: each event makes a real transaction that is terminal in the
// answer, and its signed event reaches the tenant's registered endpoint. A gateway without
// SANDBOX_MODE refusing it: gateway/test/openapi.int.test.ts and the route's unit test.
import { randomBytes, randomUUID } from 'node:crypto';
import type { TransactionEventType } from '@qr-payout/platform/vocabulary';
import { sandboxTriggerExampleTransaction } from '../gateway/src/openapi/sandbox-trigger-examples';
import { type System, startSystem, type TestTenant } from './harness';
import { call } from './support/http';
import type { PublicTransaction } from './support/pay';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(120_000);

let system: System;
let tenant: TestTenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  system = await startSystem({
    gatewayEnv: { SANDBOX_MODE: 'true' },
    serviceEnv: { payout: { EXECUTE_WAIT_MS: '4000', POLL_INTERVAL_MS: '200' } },
  });
  tenant = await system.createTenant(`e2e-triggers-${randomBytes(4).toString('hex')}`, 1_000);
  receiver.setSecrets([tenant.signingSecret]);
  await system.admin.createWebhookEndpoint({
    endpoint: { tenantId: tenant.tenantId, url: `${receiver.url}/hook`, eventTypes: ['*'], headers: [] },
  });
}, 240_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
}, 60_000);

function trigger(event: string, key: string) {
  return call(system.gatewayUrl, '/v1/sandbox/triggers', {
    apiKey: tenant.apiKey,
    body: JSON.stringify({ event }),
    contentType: 'application/json',
    headers: { 'idempotency-key': key },
  });
}

describe('POST /v1/sandbox/triggers', () => {
  it.each([
    ['transaction.failed', 'failed'],
    ['transaction.completed', 'completed'],
  ])('%s: a real terminal transaction of the tenant and its signed webhook', async (event, status) => {
    const key = randomUUID();
    const answer = await trigger(event, key);
    expect(answer.status).toBe(201);
    const txn = answer.json?.transaction as PublicTransaction;
    expect(txn.status).toBe(status);
    if (status === 'failed') expect(txn.error?.code).toBe('AC03');
    // The reference's example of this answer is what the sandbox answers, but for ids, times and
    // the rail's reference (gateway/src/openapi/sandbox-trigger-examples.ts).
    const { id, instructionId, createdAt, updatedAt, result, statusHistory, ...example } =
      sandboxTriggerExampleTransaction(event as TransactionEventType);
    expect(txn).toMatchObject(example);
    expect(txn.result === null).toBe(result === null);
    // The example's states in its order, the first at the creation, the last at the last change.
    // A settlement slower than the first poll (a loaded machine) adds a processing between them
    // (docs/api/resources.md "State history"); a refusal at submission never does.
    const states = txn.statusHistory.map((change) => change.status);
    expect(states.filter((state) => status === 'failed' || state !== 'processing')).toEqual(
      statusHistory.map((change) => change.status),
    );
    expect(txn.statusHistory[0]?.at).toBe(txn.createdAt);
    expect(txn.statusHistory.at(-1)?.at).toBe(txn.updatedAt);

    const read = await call(system.gatewayUrl, `/v1/transactions/${txn.id}`, { apiKey: tenant.apiKey });
    expect(read.json?.transaction).toMatchObject({ id: txn.id, status });

    const forTxn = () => receiver.at('/hook').filter((r) => r.envelope.data?.transaction_id === txn.id);
    await receiver.waitFor(() => forTxn().length >= 1, 30_000);
    const [delivered] = forTxn();
    expect(delivered?.envelope.event_type).toBe(event);
    expect(delivered?.helperVerified).toBe(true);
    expect(delivered?.plainVerified).toBe(true);

    // The same key and body: the same transaction, nothing paid again.
    const again = await trigger(event, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json?.transaction).toMatchObject({ id: txn.id, status });
  });
});
