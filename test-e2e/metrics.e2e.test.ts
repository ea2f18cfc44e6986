// Issue 12 "How we will know": every metric of docs/runbooks.md is scraped from its process's
// /metrics (METRICS_PORT) and moves when its cause happens. The outbox backlog and the oldest due
// delivery are caused for real by starting the system with the relay and the delivery worker off
// and turning them on later (a second payout with the relay, a second webhook with the worker);
// the consumer lag is shown present and back to 0 once the dispatcher has read the events.
import { randomBytes } from 'node:crypto';
import { type System, startSystem, type TestTenant } from './harness';
import { call } from './support/http';
import { payPix } from './support/pay';
import { eventually } from './support/processes';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(240_000);

const PAY_ROUTE = { http_route: '/v1/pay', http_request_method: 'POST', http_response_status_code: '200' };
const PAY_RPC = {
  rpc_service: 'payout.payout.v1.PayoutService',
  rpc_method: 'Pay',
  rpc_grpc_status_code: '0',
};

let system: System;
let tenant: TestTenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  system = await startSystem({
    gatewayEnv: { EXECUTE_WAIT_MS: '1000' },
    // …54 stays processing for the whole test: past its 2 s horizon, it is stuck.
    partnerSimEnv: { PARTNER_SIM_SLOW_SETTLE_MS: '600000' },
    serviceEnv: {
      payout: {
        OUTBOX_RELAY_ENABLED: 'false',
        SETTLEMENT_HORIZON_PIX_MS: '2000',
        STUCK_GAUGE_REFRESH_MS: '100',
      },
      webhook: { WEBHOOK_WORKER_ENABLED: 'false' },
    },
  });
  tenant = await system.createTenant(`e2e-metrics-${randomBytes(4).toString('hex')}`, 1_000);
  receiver.setSecrets([tenant.signingSecret]);
  await system.admin.createWebhookEndpoint({
    endpoint: { tenantId: tenant.tenantId, url: `${receiver.url}/metrics-hook`, eventTypes: ['*'] },
  });
}, 240_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
}, 60_000);

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a Prometheus text exposition. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return parseExposition(await response.text());
}

/** The sum of the samples of `name` carrying at least `labels` (0 when none). */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

function has(samples: Sample[], name: string): boolean {
  return samples.some((s) => s.name === name);
}

const read = (url: string, name: string, labels: Record<string, string> = {}) =>
  scrape(url).then((samples) => total(samples, name, labels));

describe('metrics', () => {
  it('every metric is scraped and moves when its cause happens', async () => {
    const urls = system.metricsUrls;
    const before = {
      http: await read(urls.gateway, 'http_server_request_duration_seconds_count', PAY_ROUTE),
      rpcClient: await read(urls.gateway, 'rpc_client_call_duration_seconds_count', PAY_RPC),
      rpcServer: await read(urls.payout, 'rpc_server_call_duration_seconds_count', PAY_RPC),
      partner: await read(urls.payout, 'payout_partner_request_duration_seconds_count', {
        rail: 'pix',
        operation: 'submit',
        outcome: 'success',
      }),
    };

    // A pay moves the gateway's route, both ends of its RPCs and the partner request.
    const paid = await payPix(system.gatewayUrl, tenant.apiKey, 10.0);
    expect(paid.status).toBe(200);
    const gateway = await scrape(urls.gateway);
    expect(total(gateway, 'http_server_request_duration_seconds_count', PAY_ROUTE)).toBe(before.http + 1);
    expect(total(gateway, 'http_server_request_duration_seconds_bucket', { ...PAY_ROUTE, le: '+Inf' })).toBe(
      before.http + 1,
    );
    expect(total(gateway, 'rpc_client_call_duration_seconds_count', PAY_RPC)).toBe(before.rpcClient + 1);
    const payout = await scrape(urls.payout);
    expect(total(payout, 'rpc_server_call_duration_seconds_count', PAY_RPC)).toBe(before.rpcServer + 1);
    expect(
      total(payout, 'payout_partner_request_duration_seconds_count', {
        rail: 'pix',
        operation: 'submit',
        outcome: 'success',
      }),
    ).toBe(before.partner + 1);
    // Every other server answered calls of its own (the tenant's creation, the pay's QR, currencies).
    expect((await call(system.gatewayUrl, '/v1/fx/currencies', { apiKey: tenant.apiKey })).status).toBe(200);
    const served: Record<string, string[]> = {};
    for (const service of ['fx', 'webhook', 'decoder'] as const) {
      const samples = await scrape(urls[service]);
      served[service] = [
        ...new Set(
          samples
            .filter((s) => s.name === 'rpc_server_call_duration_seconds_count')
            .map((s) => s.labels.rpc_method ?? ''),
        ),
      ];
    }
    expect(Object.values(served).map((methods) => methods.length > 0)).toEqual([true, true, true]);
    // Labels stay bounded: no transaction id, tenant or key anywhere.
    const txnId = (paid.json?.transaction as { id: string } | undefined)?.id ?? 'missing';
    for (const sample of [...gateway, ...payout]) {
      expect(JSON.stringify(sample.labels)).not.toContain(txnId);
      expect(JSON.stringify(sample.labels)).not.toContain(tenant.tenantId);
    }

    // The relay is off: the event waits in the outbox, and its age grows.
    const backlog = await eventually(
      () => scrape(urls.payout),
      (s) => total(s, 'payout_outbox_pending_events') >= 1 && total(s, 'payout_outbox_lag_seconds') > 0.5,
      10_000,
    );
    expect(total(backlog, 'payout_outbox_pending_events')).toBeGreaterThanOrEqual(1);

    // A slow payment stays processing past its 2 s horizon: stuck on pix.
    const slow = await payPix(system.gatewayUrl, tenant.apiKey, 20.54);
    expect(slow.status).toBe(200);
    await eventually(
      () => read(urls.payout, 'payout_transactions_stuck', { rail: 'pix' }),
      (stuck) => stuck >= 1,
      15_000,
    );

    // A payout replica with the relay on publishes the backlog: both gauges back to 0.
    receiver.answer('/metrics-hook', (nth) => ({ status: nth <= 2 ? 500 : 200 }));
    await system.startService('payout', { OUTBOX_RELAY_ENABLED: 'true' });
    await eventually(
      () => scrape(urls.payout),
      (s) => total(s, 'payout_outbox_pending_events') === 0 && total(s, 'payout_outbox_lag_seconds') === 0,
      15_000,
    );

    // The dispatcher reads the event (its group's lag is present and back to 0) and makes the
    // delivery; no worker runs yet, so the delivery waits past its due time.
    const webhook = await eventually(
      () => scrape(urls.webhook),
      (s) =>
        has(s, 'webhook_kafka_consumer_lag_messages') &&
        total(s, 'webhook_kafka_consumer_lag_messages', { topic: 'payout.transaction-events.v1' }) === 0 &&
        total(s, 'webhook_oldest_due_delivery_seconds') > 1,
      30_000,
    );
    expect(total(webhook, 'webhook_oldest_due_delivery_seconds')).toBeGreaterThan(1);

    // A worker replica sends it: the receiver answers 500 twice, then 200.
    const worker = await system.startService('webhook', {
      WEBHOOK_WORKER_ENABLED: 'true',
      WEBHOOK_DISPATCHER_ENABLED: 'false',
    });
    const sent = await eventually(
      () => scrape(worker.metricsUrl),
      (s) => total(s, 'webhook_deliveries_total', { outcome: 'delivered' }) >= 1,
      30_000,
    );
    expect(total(sent, 'webhook_attempts_total', { outcome: 'http_error' })).toBe(2);
    expect(total(sent, 'webhook_attempts_total', { outcome: 'success' })).toBeGreaterThanOrEqual(1);
    await eventually(
      () => read(urls.webhook, 'webhook_oldest_due_delivery_seconds'),
      (late) => late === 0,
      10_000,
    );
  });
});
