// Every metric of docs/runbooks.md is scraped from its process's
// /metrics (METRICS_PORT) and moves when its cause happens. The outbox backlog and the oldest due
// delivery are caused for real by starting the system with the relay and the delivery worker off
// and turning them on later (a second payout with the relay, a third webhook with the worker); a
// webhook process without the dispatcher reports no Kafka gauge (no dispatcher is what that
// absence alerts on), and a second webhook with the dispatcher reports its group's lag back to 0
// once it has read the events, its members and the topic's partitions. Errors are caused
// for real too: an unknown transaction, a refused body, a stopped decoder, partner faults.
import { randomBytes } from 'node:crypto';
import { type System, startSystem, type TestTenant } from './harness';
import { call, causeClientErrors } from './support/http';
import { parseExposition, type Sample, total } from './support/metrics';
import { payPix, resolvePix } from './support/pay';
import { eventually } from './support/processes';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(240_000);

const PAY_ROUTE = { http_route: '/v1/pay', http_request_method: 'POST', http_response_status_code: '200' };
const PAY_RPC = {
  rpc_service: 'payout.payout.v1.PayoutService',
  rpc_method: 'Pay',
  rpc_grpc_status_code: '0',
};
const EVENTS_TOPIC = { topic: 'payout.transaction-events.v1' };

let system: System;
let tenant: TestTenant;
let receiver: WebhookReceiver;
// The payout replicas started by the test (their partner requests count too).
const relayUrls: string[] = [];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  system = await startSystem({
    // …54 stays processing for the whole test: past its 2 s horizon, it is stuck. The fault plan
    // makes partner submissions fail or time out on demand.
    partnerSimEnv: { PARTNER_SIM_SLOW_SETTLE_MS: '600000', PARTNER_SIM_FAULTS: 'true' },
    serviceEnv: {
      payout: {
        EXECUTE_WAIT_MS: '1000',
        OUTBOX_RELAY_ENABLED: 'false',
        SETTLEMENT_HORIZON_PIX_MS: '2000',
        STUCK_GAUGE_REFRESH_MS: '100',
        // A held submission answer times out well before the fault's 8 s.
        PARTNER_TIMEOUT_MS: '3000',
      },
      // Neither the dispatcher nor the worker: the harness's group is this system's own, so no
      // process reads it until the test starts one.
      webhook: { WEBHOOK_WORKER_ENABLED: 'false', WEBHOOK_DISPATCHER_ENABLED: 'false' },
    },
  });
  tenant = await system.createTenant(`e2e-metrics-${randomBytes(4).toString('hex')}`, 1_000);
  receiver.setSecrets([tenant.signingSecret]);
  await system.admin.createWebhookEndpoint({
    endpoint: { tenantId: tenant.tenantId, url: `${receiver.url}/metrics-hook`, eventTypes: ['*'] },
  });
}, 240_000);

afterAll(async () => {
  if (system) await fetch(`${system.partnerSimUrl}/_sim/faults`, { method: 'DELETE' }).catch(() => undefined);
  await system?.stop();
  await receiver?.close();
}, 60_000);

/** GET a /metrics endpoint: 200 in Prometheus' text format, its samples. */
async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return parseExposition(await response.text());
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

    // No dispatcher runs: the webhook process reports no Kafka gauge at all (its role has no Kafka
    // egress in the chart), and none reporting is what "No webhook dispatcher" alerts on.
    const noDispatcher = await scrape(urls.webhook);
    expect(has(noDispatcher, 'webhook_oldest_due_delivery_seconds')).toBe(true);
    expect(has(noDispatcher, 'webhook_kafka_consumer_lag_messages')).toBe(false);
    expect(has(noDispatcher, 'webhook_dispatcher_group_members')).toBe(false);

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
    const relay = await system.startService('payout', { OUTBOX_RELAY_ENABLED: 'true' });
    await eventually(
      () => scrape(urls.payout),
      (s) => total(s, 'payout_outbox_pending_events') === 0 && total(s, 'payout_outbox_lag_seconds') === 0,
      15_000,
    );
    relayUrls.push(relay.metricsUrl);
    const published = await read(relay.metricsUrl, 'payout_outbox_published_total');
    expect(published).toBeGreaterThanOrEqual(1);

    // No dispatcher reads them: no delivery was made meanwhile.
    // A webhook with the dispatcher reads them (its group's lag, as the dispatcher reports it, back
    // to 0; one member, at most as many as the topic's partitions) and makes the delivery; no
    // worker runs yet, so it waits past its due time.
    const dispatcher = await system.startService('webhook', { WEBHOOK_DISPATCHER_ENABLED: 'true' });
    const group = await eventually(
      () => scrape(dispatcher.metricsUrl),
      (s) =>
        has(s, 'webhook_kafka_consumer_lag_messages') &&
        total(s, 'webhook_kafka_consumer_lag_messages', EVENTS_TOPIC) === 0 &&
        total(s, 'webhook_dispatcher_group_members') >= 1,
      90_000,
    );
    expect(total(group, 'webhook_dispatcher_topic_partitions', EVENTS_TOPIC)).toBeGreaterThanOrEqual(
      total(group, 'webhook_dispatcher_group_members'),
    );
    const webhook = await eventually(
      () => scrape(urls.webhook),
      (s) => total(s, 'webhook_oldest_due_delivery_seconds') > 1,
      90_000,
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

  it('partner outcomes other than success are counted', async () => {
    const payouts = [system.metricsUrls.payout, ...relayUrls];
    const outcome = async (name: string) => {
      let sum = 0;
      for (const url of payouts) {
        sum += await read(url, 'payout_partner_request_duration_seconds_count', {
          rail: 'pix',
          operation: 'submit',
          outcome: name,
        });
      }
      return sum;
    };
    const before = { serverError: await outcome('server_error'), timeout: await outcome('timeout') };
    // The next two submissions: a 500, then an answer held past payout's PARTNER_TIMEOUT_MS.
    const plan = await fetch(`${system.partnerSimUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        submit: [{ kind: 'error_before_accept' }, { kind: 'timeout_after_accept', ms: 8_000 }],
      }),
    });
    expect(plan.status).toBe(200);
    const statuses: number[] = [];
    for (const amount of [11.0, 12.0]) {
      const paid = await payPix(system.gatewayUrl, tenant.apiKey, amount);
      statuses.push(paid.status);
    }
    await eventually(
      async () => ({ serverError: await outcome('server_error'), timeout: await outcome('timeout') }),
      (now) => now.serverError >= before.serverError + 1 && now.timeout >= before.timeout + 1,
      30_000,
    );
    // The gateway still answers both pays (processing: payout settles them later).
    expect(statuses).toEqual([200, 200]);
  });

  it('errors are counted per route and per RPC, with their status', async () => {
    const urls = system.metricsUrls;
    const getTransaction = { rpc_service: 'payout.payout.v1.PayoutService', rpc_method: 'GetTransaction' };
    const notFound = { ...getTransaction, rpc_grpc_status_code: '5' };
    const transactionRoute = { http_route: '/v1/transactions/{id}', http_request_method: 'GET' };
    const payRefused = { ...PAY_ROUTE, http_response_status_code: '400' };
    const before = {
      http404: await read(urls.gateway, 'http_server_request_duration_seconds_count', {
        ...transactionRoute,
        http_response_status_code: '404',
      }),
      http400: await read(urls.gateway, 'http_server_request_duration_seconds_count', payRefused),
      client5: await read(urls.gateway, 'rpc_client_call_duration_seconds_count', notFound),
      server5: await read(urls.payout, 'rpc_server_call_duration_seconds_count', notFound),
    };

    // An unknown transaction (404, NOT_FOUND at both ends of GetTransaction) and a refused body (400).
    await causeClientErrors(system.gatewayUrl, tenant.apiKey);
    const gateway = await scrape(urls.gateway);
    expect(
      total(gateway, 'http_server_request_duration_seconds_count', {
        ...transactionRoute,
        http_response_status_code: '404',
      }),
    ).toBe(before.http404 + 1);
    expect(total(gateway, 'http_server_request_duration_seconds_count', payRefused)).toBe(before.http400 + 1);
    expect(total(gateway, 'rpc_client_call_duration_seconds_count', notFound)).toBe(before.client5 + 1);
    expect(await read(urls.payout, 'rpc_server_call_duration_seconds_count', notFound)).toBe(
      before.server5 + 1,
    );

    // The decoder stopped: resolving a QR is a 503, and the gateway's Decode calls end UNAVAILABLE (14).
    const decoderRpc = { rpc_service: 'payout.decoder.v1.DecoderService', rpc_grpc_status_code: '14' };
    const resolveRoute = { http_route: '/v1/resolve', http_request_method: 'POST' };
    const unavailableBefore = await read(urls.gateway, 'rpc_client_call_duration_seconds_count', decoderRpc);
    const http503Before = await read(urls.gateway, 'http_server_request_duration_seconds_count', {
      ...resolveRoute,
      http_response_status_code: '503',
    });
    const decoder = system.processes.find((proc) => proc.name.startsWith('decoder-') && !proc.hasExited());
    expect(decoder).toBeDefined();
    await decoder!.stop();
    const resolve = () => resolvePix(system.gatewayUrl, tenant.apiKey);
    expect((await resolve()).status).toBe(503);
    const down = await scrape(urls.gateway);
    expect(
      total(down, 'http_server_request_duration_seconds_count', {
        ...resolveRoute,
        http_response_status_code: '503',
      }),
    ).toBe(http503Before + 1);
    expect(total(down, 'rpc_client_call_duration_seconds_count', decoderRpc)).toBeGreaterThan(
      unavailableBefore,
    );

    // Restarted on its port (and metrics port), it serves again.
    await system.startService('decoder', {
      GRPC_PORT: new URL(system.serviceUrls.decoder).port,
      METRICS_PORT: new URL(urls.decoder).port,
    });
    await eventually(resolve, (res) => res.status === 200, 60_000, 1_000);
  });
});
