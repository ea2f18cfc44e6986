// One trace id across every hop (docs/architecture.md "Traces"): each process exports its spans
// over OTLP/HTTP to a receiver this test runs. GET /v1/schemes: the decoder's server span hangs
// under the gateway's span of the same request. POST /v1/pay: gateway → decoder, fx, payout → the
// partner call, then across the asynchronous hops: the outbox relay's publish, the webhook
// dispatcher's process, and each attempt to the receiver, a retry included, all in the pay's trace,
// and no span carries a key, a secret, a tax id or an account number. A pay the partner settles
// later (found by the polling worker) keeps its webhooks in the pay's trace; the span that settled it
// has a trace of its own with a link to the pay.
import { randomBytes, randomUUID } from 'node:crypto';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  SPAN_KIND_CLIENT,
  SPAN_KIND_CONSUMER,
  SPAN_KIND_PRODUCER,
  SPAN_KIND_SERVER,
  type System,
  startOtlpReceiver,
  startSystem,
} from './harness';
import { call } from './support/http';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(120_000);

let receiver: OtlpReceiver;
let system: System;
let webhooks: WebhookReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  webhooks = await startWebhookReceiver();
  // No scheme cache: every GET /v1/schemes is a gRPC call to the decoder.
  system = await startSystem({
    otlpTracesUrl: receiver.tracesUrl,
    gatewayEnv: { SCHEMES_CACHE_TTL_MS: '0' },
  });
}, 240_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
  await webhooks?.close();
}, 60_000);

interface CrossProcessTrace {
  gatewayServer: ReceivedSpan;
  decoderServer: ReceivedSpan;
  decoderParent: ReceivedSpan;
}

/** The decoder ListSchemes server span whose parent is a gateway span under a gateway server span. */
function findCrossProcessTrace(spans: ReceivedSpan[]): CrossProcessTrace | undefined {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  for (const decoderServer of spans) {
    if (decoderServer.service !== 'decoder' || decoderServer.kind !== SPAN_KIND_SERVER) continue;
    if (!/ListSchemes/.test(decoderServer.name)) continue;
    const decoderParent = byId.get(decoderServer.parentSpanId);
    if (decoderParent?.service !== 'gateway') continue;
    // Walk up inside the gateway process to its server span for the HTTP request.
    let ancestor: ReceivedSpan | undefined = decoderParent;
    while (ancestor && ancestor.service === 'gateway' && ancestor.kind !== SPAN_KIND_SERVER) {
      ancestor = byId.get(ancestor.parentSpanId);
    }
    if (ancestor?.service === 'gateway' && ancestor.kind === SPAN_KIND_SERVER) {
      return { gatewayServer: ancestor, decoderServer, decoderParent };
    }
  }
  return undefined;
}

const describeSpans = (spans: ReceivedSpan[]) =>
  spans
    .map((s) => `${s.service} kind=${s.kind} ${s.name} trace=${s.traceId} parent=${s.parentSpanId}`)
    .join('\n');

test('GET /v1/schemes is one trace: gateway server span → gateway client span → decoder server span', async () => {
  const tenant = await system.createTenant(`e2e-trace-${randomBytes(4).toString('hex')}`);
  const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey: tenant.apiKey });
  expect(res.status).toBe(200);

  await receiver
    .waitFor((spans) => findCrossProcessTrace(spans) !== undefined, 20_000)
    .catch((err: Error) => {
      throw new Error(`${err.message}\nspans received:\n${describeSpans(receiver.spans)}`);
    });

  const trace = findCrossProcessTrace(receiver.spans)!;
  expect(trace.gatewayServer.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(trace.gatewayServer.traceId).not.toBe('0'.repeat(32));
  expect(trace.decoderServer.traceId).toBe(trace.gatewayServer.traceId);
  expect(trace.decoderParent.traceId).toBe(trace.gatewayServer.traceId);
  // The hop itself: the decoder's parent span was made in the gateway process, not in the decoder.
  expect(trace.decoderParent.service).toBe('gateway');
  expect(trace.decoderParent.kind).toBe(SPAN_KIND_CLIENT);
  expect(trace.decoderServer.parentSpanId).toBe(trace.decoderParent.spanId);
  expect(trace.gatewayServer.name).toMatch(/GET/);
});

const TOPIC = 'payout.transaction-events.v1';

/** The span's ancestors, nearest first, as far as the received spans reach. */
function ancestorsOf(span: ReceivedSpan, byId: Map<string, ReceivedSpan>): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) {
    chain.push(parent);
  }
  return chain;
}

const attemptSpansOf = (spans: ReceivedSpan[], eventId: string) =>
  spans.filter(
    (s) =>
      s.service === 'webhook' &&
      s.kind === SPAN_KIND_CLIENT &&
      s.name === 'POST' &&
      s.attributes['webhook.event.id'] === eventId,
  );

test('POST /v1/pay is one trace down to each webhook attempt, a retry included, and no span carries a secret', async () => {
  const tenant = await system.createTenant(`e2e-trace-pay-${randomBytes(4).toString('hex')}`);
  const headerSecret = `hdr-${randomBytes(8).toString('hex')}`;
  webhooks.setSecrets([tenant.signingSecret]);
  // The first attempt meets a 500, the retry a 200.
  webhooks.answer('/flaky', (nth) => ({ status: nth === 1 ? 500 : 200 }));
  await system.admin.createWebhookEndpoint({
    endpoint: {
      tenantId: tenant.tenantId,
      url: `${webhooks.url}/flaky?token=${headerSecret}`,
      eventTypes: ['*'],
      headers: [{ name: 'X-Api-Key', value: headerSecret }],
    },
  });

  // …51: the partner rejects at once (docs/partner-protocol.md "Sandbox outcomes"), so the pay
  // itself settles and writes the event; wallet_currency brings fx in.
  const idempotencyKey = randomUUID();
  const paid = await call(system.gatewayUrl, '/v1/pay', {
    apiKey: tenant.apiKey,
    body: JSON.stringify({ qr_string: PIX_WITHOUT_AMOUNT, amount: 10.51, wallet_currency: 'USD', ...PAYER }),
    contentType: 'application/json',
    headers: { 'idempotency-key': idempotencyKey },
  });
  expect(paid.status).toBe(200);
  const txnId = (paid.json!.transaction as { id: string }).id;
  await webhooks.waitFor((all) => all.filter((r) => r.envelope.data?.transaction_id === txnId).length >= 2);
  const eventId = webhooks.received.find((r) => r.envelope.data?.transaction_id === txnId)!.envelope.event_id;

  // Both attempts, each with its parent chain up to the gateway's server span.
  const complete = (spans: ReceivedSpan[]) => {
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const attempts = attemptSpansOf(spans, eventId);
    return (
      attempts.length === 2 &&
      attempts.every((a) => {
        const up = ancestorsOf(a, byId);
        return (
          up.length > 0 && up[up.length - 1]!.service === 'gateway' && up[up.length - 1]!.parentSpanId === ''
        );
      })
    );
  };
  await receiver.waitFor(complete, 30_000).catch((err: Error) => {
    throw new Error(`${err.message}\nspans received:\n${describeSpans(receiver.spans)}`);
  });

  const spans = receiver.spans;
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const attempts = attemptSpansOf(spans, eventId).sort(
    (a, b) => Number(a.attributes['webhook.attempt']) - Number(b.attributes['webhook.attempt']),
  );
  const traceId = attempts[0]!.traceId;
  const inTrace = spans.filter((s) => s.traceId === traceId);

  // Each attempt: CLIENT `POST` under the dispatcher's CONSUMER span, by the HTTP conventions.
  expect(attempts.map((a) => a.attributes['webhook.attempt'])).toEqual([1, 2]);
  expect(attempts.map((a) => a.attributes['http.response.status_code'])).toEqual([500, 200]);
  expect(attempts[0]!.attributes['url.full']).toBe(`${webhooks.url}/flaky`);
  expect(attempts[0]!.attributes['http.request.method']).toBe('POST');
  const consumer = byId.get(attempts[0]!.parentSpanId)!;
  expect(attempts[1]!.parentSpanId).toBe(consumer.spanId);
  expect(consumer).toMatchObject({ service: 'webhook', kind: SPAN_KIND_CONSUMER, name: `process ${TOPIC}` });
  expect(consumer.attributes).toMatchObject({
    'messaging.system': 'kafka',
    'messaging.destination.name': TOPIC,
    'messaging.message.id': eventId,
  });
  // ← the relay's PRODUCER span, in payout …
  const producer = byId.get(consumer.parentSpanId)!;
  expect(producer).toMatchObject({ service: 'payout', kind: SPAN_KIND_PRODUCER, name: `publish ${TOPIC}` });
  expect(producer.attributes).toMatchObject({
    'messaging.system': 'kafka',
    'messaging.destination.name': TOPIC,
    'messaging.kafka.message.key': txnId,
  });
  // … under the pay's server span in payout, called by the gateway's client span, under the
  // gateway's server span for POST /v1/pay: the root.
  const up = ancestorsOf(producer, byId);
  const payoutServer = up.find((s) => s.service === 'payout' && s.kind === SPAN_KIND_SERVER)!;
  expect(payoutServer.name).toMatch(/PayoutService\/Pay$/);
  expect(payoutServer.attributes['rpc.system']).toBe('grpc');
  const gatewayClient = byId.get(payoutServer.parentSpanId)!;
  expect(gatewayClient).toMatchObject({ service: 'gateway', kind: SPAN_KIND_CLIENT });
  const root = up[up.length - 1]!;
  expect(root).toMatchObject({ service: 'gateway', kind: SPAN_KIND_SERVER, parentSpanId: '' });
  expect(root.name).toMatch(/POST/);
  expect(ancestorsOf(gatewayClient, byId)).toContain(root);

  // The other hops of the pay, in the same trace: decoder, fx, and payout's partner call.
  expect(inTrace.some((s) => s.service === 'decoder' && s.kind === SPAN_KIND_SERVER)).toBe(true);
  expect(inTrace.some((s) => s.service === 'fx' && s.kind === SPAN_KIND_SERVER)).toBe(true);
  const partnerCall = inTrace.find(
    (s) =>
      s.service === 'payout' &&
      s.kind === SPAN_KIND_CLIENT &&
      Object.values(s.attributes).some((v) => String(v).includes('/v1/payouts')),
  );
  expect(partnerCall).toBeDefined();
  expect(ancestorsOf(partnerCall!, byId)).toContain(payoutServer);

  // No key, secret or personal data in any attribute or event of any span received
  // (docs/architecture.md "Sampling and personal data"): the API key and signing secret, the endpoint's
  // header secret, the Idempotency-Key (the gateway's Redis key for the cached answer), the payer,
  // and the merchant as the cached pay answer holds it (its text fields: name, city, Pix key).
  const merchantFields = Object.values(
    (paid.json!.transaction as { creditor?: Record<string, unknown> }).creditor ?? {},
  ).filter((v): v is string => typeof v === 'string' && v.length >= 6);
  expect(merchantFields.length).toBeGreaterThan(0);
  const secrets = [
    tenant.apiKey,
    tenant.signingSecret,
    headerSecret,
    idempotencyKey,
    PAYER.payer_tax_id,
    PAYER.payer_tax_id.replace(/\D/g, ''),
    PAYER.payer_account,
    PAYER.payer_name,
    ...merchantFields,
  ];
  // Redis spans (the gateway's idempotency and rate-limit calls) name the command and nothing else.
  const redisSpans = inTrace.filter(
    (s) => (s.attributes['db.system.name'] ?? s.attributes['db.system']) === 'redis',
  );
  expect(redisSpans.length).toBeGreaterThan(0);
  for (const span of redisSpans)
    expect(span.attributes['db.statement'] ?? span.attributes['db.query.text']).toBe(span.name);
  // Health probes (the round-robin clients' Watch streams run all along) make no span.
  expect(spans.filter((s) => s.name.includes('grpc.health.v1'))).toEqual([]);
  for (const span of spans) {
    const values = [...Object.values(span.attributes).map(String), ...span.eventValues];
    for (const secret of secrets) {
      const leaks = values.filter((v) => v.includes(secret));
      if (leaks.length > 0) throw new Error(`${span.service} span ${span.name} carries a secret: ${leaks}`);
    }
  }
});

test("a pay settled later by the polling worker keeps its webhook attempts in the pay's trace; the poll links to the pay", async () => {
  const tenant = await system.createTenant(`e2e-trace-late-${randomBytes(4).toString('hex')}`);
  webhooks.setSecrets([tenant.signingSecret]);
  webhooks.answer('/late', () => ({ status: 200 }));
  await system.admin.createWebhookEndpoint({
    endpoint: { tenantId: tenant.tenantId, url: `${webhooks.url}/late`, eventTypes: ['*'], headers: [] },
  });

  // The client's own trace (the gateway honours traceparent), so the pay's trace id is known here.
  // …52: accepted, then settled about 150 ms later without a callback: found by the polling worker
  // (docs/api/sandbox.md "Test amounts"), in a `payout.poll_transaction` trace of its own.
  const payTraceId = randomBytes(16).toString('hex');
  const paid = await call(system.gatewayUrl, '/v1/pay', {
    apiKey: tenant.apiKey,
    body: JSON.stringify({ qr_string: PIX_WITHOUT_AMOUNT, amount: 10.52, ...PAYER }),
    contentType: 'application/json',
    headers: {
      'idempotency-key': randomUUID(),
      traceparent: `00-${payTraceId}-${randomBytes(8).toString('hex')}-01`,
    },
  });
  expect(paid.status).toBe(200);
  const txnId = (paid.json!.transaction as { id: string }).id;
  await webhooks.waitFor((all) => all.some((r) => r.envelope.data?.transaction_id === txnId));
  const eventId = webhooks.received.find((r) => r.envelope.data?.transaction_id === txnId)!.envelope.event_id;

  // The settling span: a payout span of another trace that links to the pay's.
  const settlerOf = (spans: ReceivedSpan[]) =>
    spans.find(
      (s) =>
        s.service === 'payout' &&
        s.traceId !== payTraceId &&
        s.links.some((link) => link.traceId === payTraceId),
    );
  await receiver
    .waitFor((spans) => attemptSpansOf(spans, eventId).length >= 1 && settlerOf(spans) !== undefined, 30_000)
    .catch((err: Error) => {
      throw new Error(`${err.message}\nspans received:\n${describeSpans(receiver.spans)}`);
    });

  const spans = receiver.spans;
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const [attempt] = attemptSpansOf(spans, eventId);
  expect(attempt!.traceId).toBe(payTraceId);
  // attempt ← process ← publish ← the pay's server span in payout (the context stored with the
  // transaction at the pay's insert).
  const consumer = byId.get(attempt!.parentSpanId)!;
  expect(consumer).toMatchObject({ service: 'webhook', kind: SPAN_KIND_CONSUMER, traceId: payTraceId });
  const producer = byId.get(consumer.parentSpanId)!;
  expect(producer).toMatchObject({ service: 'payout', kind: SPAN_KIND_PRODUCER, traceId: payTraceId });
  const payoutServer = ancestorsOf(producer, byId).find(
    (s) => s.service === 'payout' && s.kind === SPAN_KIND_SERVER,
  );
  expect(payoutServer?.name).toMatch(/PayoutService\/Pay$/);

  // The poll that settled it keeps its own trace, with one link to the very context the event
  // continues.
  const settler = settlerOf(spans)!;
  expect(settler.name).toBe('payout.poll_transaction');
  expect(settler.attributes['payout.transaction_id']).toBe(txnId);
  expect(settler.parentSpanId).toBe('');
  expect(settler.links).toEqual([{ traceId: payTraceId, spanId: producer.parentSpanId }]);
});
