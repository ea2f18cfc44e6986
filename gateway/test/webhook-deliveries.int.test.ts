import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { type Client, Code, ConnectError } from '@connectrpc/connect';
import { createMemoryBus, TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { closeGrpcClients } from '@qr-payout/platform/grpc';
import { silentLogger } from '@qr-payout/platform/log';
import type { AdminService } from '@qr-payout/proto/payout/admin/v1/admin_pb';
import { TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { createAdminClient } from '@qr-payout/test-kit/admin';
import { databaseEnv, serviceEnv } from '@qr-payout/test-kit/service';
import { loadWebhookConfig, type RunningWebhook, startWebhook } from '@qr-payout/webhook';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type pg from 'pg';
import { checkResponsesAgainstRoutes } from '../src/http/routes/response-check';
import { loadGatewayConfig, type RunningGateway, startGateway } from '../src/index';
import { buildOpenApiDocument } from '../src/openapi/document';
import { gatewayEnv, type HttpResponse, randomSuffix, request, schemaPool } from './support';

// The public delivery routes end to end: the real gateway, the REAL webhook service in process
// (its own schema, worker on, the dispatcher on an in-memory bus instead of Kafka), a local
// receiver, tenants and endpoints made through the admin API, deliveries made by PingEndpoint
// and by transaction events published on the bus.

const gatewaySchema = `gw_whd_${randomSuffix()}`;
const webhookSchema = `wh_whd_${randomSuffix()}`;
const ULID_TXN = () => `txn_01JE${randomBytes(11).toString('hex').toUpperCase()}`;

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };

let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
/** Requests to /hang are held open until the end, so their delivery stays in flight. */
const hanging: http.ServerResponse[] = [];

let bus: ReturnType<typeof createMemoryBus>;
let webhook: RunningWebhook;
let gateway: RunningGateway;
let base: string;
let admin: Client<typeof AdminService>;
let gatewayPool: pg.Pool;
let webhookPool: pg.Pool;

type Tenant = { tenantId: string; apiKey: string; signingSecret: string };
let tenantA: Tenant;
let tenantB: Tenant;
let endpointA: string;
let hangEndpointA: string;
let endpointB: string;
const TXN_1 = ULID_TXN();
// WEBHOOK_REPLAY_MIN_INTERVAL_MS: long enough for a few calls inside it, short enough to wait out.
const REPLAY_INTERVAL_MS = 3_000;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(buildOpenApiDocument(), 'openapi.json');

function startReceiver(): Promise<void> {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (req.url?.startsWith('/hang')) {
        hanging.push(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, '127.0.0.1', () => {
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

async function createTenant(name: string): Promise<Tenant> {
  const res = await admin.createTenant({ name });
  return { tenantId: res.tenant!.id, apiKey: res.apiKey, signingSecret: res.signingSecret };
}

async function createEndpoint(tenantId: string, path: string, eventTypes: string[]): Promise<string> {
  const res = await admin.createWebhookEndpoint({
    endpoint: { tenantId, url: `${receiverUrl}${path}`, eventTypes },
  });
  return res.endpoint!.id;
}

function get(path: string, apiKey: string): Promise<HttpResponse> {
  return request(base, path, { headers: { 'x-api-key': apiKey } });
}

function replay(id: string, apiKey: string, body?: string): Promise<HttpResponse> {
  return request(base, `/v1/webhook-deliveries/${id}/replay`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body } : {}),
  });
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function waitDelivered(id: string, apiKey: string, attempts = 1) {
  return waitFor(`${id} delivered`, async () => {
    const res = await get(`/v1/webhook-deliveries/${id}`, apiKey);
    const d = res.json().delivery;
    return d.status === 'delivered' && d.attempt_log.length >= attempts ? d : undefined;
  });
}

/**
 * docs/api/webhooks.md "The signature": any v1 of the header is HMAC-SHA256(secret,
 * "<t>.<raw body>") in hex.
 */
function signatureVerifies(header: string | undefined, body: string, secret: string): boolean {
  const parts = (header ?? '').split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  if (!t || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const got = Buffer.from(v ?? '', 'hex');
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

function validates(schemaName: string, value: unknown): string {
  const validate = ajv.getSchema(`openapi.json#/components/schemas/${schemaName}`)!;
  return validate(value) ? 'valid' : ajv.errorsText(validate.errors);
}

async function publishCompleted(
  tenantId: string,
  transactionId: string,
  callbackUrl: string,
): Promise<string> {
  const eventId = randomUUID();
  const event = create(TransactionEventSchema, {
    eventId,
    eventType: 'transaction.completed',
    schemaVersion: '1',
    occurredAt: timestampNow(),
    tenantId,
    transaction: {
      id: transactionId,
      instructionId: `ins_${transactionId.slice(4)}`,
      status: TransactionStatus.COMPLETED,
      rail: 'pix',
      createdAt: timestampNow(),
      updatedAt: timestampNow(),
      result: { reference: 'E1234567820261124120000000000001', settledAt: timestampNow() },
      callbackUrl,
    },
  });
  await bus.publish(TRANSACTION_EVENTS_TOPIC, [
    { key: transactionId, value: toBinary(TransactionEventSchema, event), headers: {} },
  ]);
  return eventId;
}

beforeAll(async () => {
  await startReceiver();
  bus = createMemoryBus();
  webhook = await startWebhook(
    loadWebhookConfig(
      serviceEnv({
        ...databaseEnv(webhookSchema, 4),
        WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_SCALE: '0.0001',
        // Never dialled: the dispatcher reads the in-memory bus below, never Kafka.
        KAFKA_BROKERS: '127.0.0.1:1',
        WEBHOOK_DISPATCHER_ENABLED: 'true',
        WEBHOOK_DISPATCHER_GROUP: `gw-whd-${randomSuffix()}`,
        WEBHOOK_POLL_MS: '50',
        // Longer than the test: a /hang delivery stays `delivering` until the end.
        WEBHOOK_TIMEOUT_MS: '60000',
        WEBHOOK_REPLAY_MIN_INTERVAL_MS: String(REPLAY_INTERVAL_MS),
      }),
    ),
    { bus },
  );
  const env = gatewayEnv({
    schema: gatewaySchema,
    redisPrefix: `test:gw-whd:${randomSuffix()}:`,
    decoderUrl: 'http://127.0.0.1:1',
  });
  gateway = await startGateway(loadGatewayConfig({ ...env, WEBHOOK_URL: webhook.url }), {
    logger: silentLogger(),
    onPublicApp: checkResponsesAgainstRoutes,
  });
  base = gateway.url;
  admin = createAdminClient(gateway.adminUrl, env['PAYOUT_ADMIN_TOKEN']);
  gatewayPool = schemaPool(gatewaySchema);
  webhookPool = schemaPool(webhookSchema);

  tenantA = await createTenant('Deliveries A');
  tenantB = await createTenant('Deliveries B');
  endpointA = await createEndpoint(tenantA.tenantId, '/a', ['*']);
  // Subscribed to an event never published here: only its pings reach it.
  hangEndpointA = await createEndpoint(tenantA.tenantId, '/hang', ['transaction.failed']);
  endpointB = await createEndpoint(tenantB.tenantId, '/b', ['*']);
}, 60_000);

afterAll(async () => {
  for (const res of hanging) res.end();
  await gateway?.stop();
  await webhook?.stop();
  await bus?.close();
  await closeGrpcClients();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await gatewayPool?.query(`DROP SCHEMA IF EXISTS "${gatewaySchema}" CASCADE`);
  await webhookPool?.query(`DROP SCHEMA IF EXISTS "${webhookSchema}" CASCADE`);
  await gatewayPool?.end();
  await webhookPool?.end();
});

describe('webhook deliveries through the public API', () => {
  // Tenant A's deliveries, oldest first: the endpoint and callback deliveries of TXN_1, then two pings.
  const made: string[] = [];
  let callbackDelivery: string;
  let firstPing: string;

  it('creates deliveries from a transaction event and from pings, and they get delivered', async () => {
    const eventId = await publishCompleted(tenantA.tenantId, TXN_1, `${receiverUrl}/callback`);
    const forTxn = await waitFor('the dispatcher', async () => {
      const res = await get(`/v1/webhook-deliveries?transaction_id=${TXN_1}`, tenantA.apiKey);
      return res.json().deliveries.length === 2 ? res.json().deliveries : undefined;
    });
    expect(forTxn.map((d: { event_id: string }) => d.event_id)).toEqual([eventId, eventId]);
    callbackDelivery = forTxn.find((d: { endpoint_id: string | null }) => d.endpoint_id === null).id;
    made.push(...forTxn.map((d: { id: string }) => d.id).reverse());
    for (let i = 0; i < 2; i++) {
      const ping = await admin.pingWebhookEndpoint({ endpointId: endpointA });
      made.push(ping.delivery!.id);
    }
    firstPing = made[2]!;
    for (const id of made) await waitDelivered(id, tenantA.apiKey);

    const body = received.find((r) => r.path === '/callback')!;
    expect(
      signatureVerifies(body.headers['service-signature'] as string, body.body, tenantA.signingSecret),
    ).toBe(true);
    expect(validates('WebhookTransactionCompletedEvent', JSON.parse(body.body))).toBe('valid');
  });

  it('lists newest first, a page at a time, with every field', async () => {
    const all = await get('/v1/webhook-deliveries?limit=100', tenantA.apiKey);
    expect(all.status).toBe(200);
    expect(all.json().next_cursor).toBeNull();
    const ids = all.json().deliveries.map((d: { id: string }) => d.id);
    expect(ids).toEqual([...made].reverse());
    const keys = all
      .json()
      .deliveries.map((d: { created_at: string; id: string }) => `${d.created_at} ${d.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(validates('WebhookDeliveriesResponse', all.json())).toBe('valid');
    expect(all.json().deliveries[0]).toMatchObject({
      event_type: 'webhook.ping',
      transaction_id: null,
      endpoint_id: endpointA,
      status: 'delivered',
      attempts: 1,
      max_attempts: 16,
      retry_strategy: 'standard',
      next_attempt_at: null,
      last_response_status: 200,
      last_error: null,
    });

    const first = await get('/v1/webhook-deliveries?limit=3', tenantA.apiKey);
    expect(first.json().deliveries.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 3));
    const cursor = first.json().next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const second = await get(
      `/v1/webhook-deliveries?limit=3&cursor=${encodeURIComponent(cursor)}`,
      tenantA.apiKey,
    );
    expect(second.json().deliveries.map((d: { id: string }) => d.id)).toEqual(ids.slice(3));
    expect(second.json().next_cursor).toBeNull();
  });

  it('combines the transaction_id and status filters', async () => {
    const ids = async (query: string) =>
      (await get(`/v1/webhook-deliveries?${query}`, tenantA.apiKey))
        .json()
        .deliveries.map((d: { id: string }) => d.id);
    expect(await ids(`transaction_id=${TXN_1}`)).toEqual([made[1], made[0]]);
    expect(await ids(`transaction_id=${TXN_1}&status=delivered`)).toEqual([made[1], made[0]]);
    expect(await ids(`status=delivered&transaction_id=${TXN_1}&limit=1`)).toEqual([made[1]]);
    expect(await ids(`transaction_id=${TXN_1}&status=exhausted`)).toEqual([]);
    expect(await ids(`transaction_id=${ULID_TXN()}&status=delivered`)).toEqual([]);
    expect(await ids('status=delivered')).toEqual([...made].reverse());
    expect(await ids('status=failed')).toEqual([]);
  });

  it('answers 400 ValidationError naming the parameter', async () => {
    const cases: [string, RegExp][] = [
      ['status=lost', /^status must be one of pending, delivering, delivered, failed, exhausted/],
      ['status=DELIVERED', /^status/],
      ['limit=abc', /^limit must be a positive integer/],
      ['limit=0', /^limit/],
      ['limit=101', /^limit must be an integer from 1 to 100/], // the webhook service's rule
      ['transaction_id=txn_123', /^transaction_id must be a transaction id/],
      ['cursor=bm90LWEtY3Vyc29y', /^cursor/], // the webhook service's rule
      ['page=2', /^page is not a known query parameter/],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/v1/webhook-deliveries?${query}`, tenantA.apiKey);
      expect([query, res.status, res.json()._tag]).toEqual([query, 400, 'ValidationError']);
      expect(res.json().message).toMatch(message);
    }
  });

  it('reads one delivery with its attempt log; the ping arrived signed, as documented', async () => {
    const res = await get(`/v1/webhook-deliveries/${firstPing}`, tenantA.apiKey);
    expect(res.status).toBe(200);
    expect(validates('WebhookDeliveryResponse', res.json())).toBe('valid');
    const { delivery } = res.json();
    expect(delivery).toMatchObject({ id: firstPing, status: 'delivered', transaction_id: null });
    expect(delivery.attempt_log).toEqual([
      {
        attempt_number: 1,
        trigger: 'ping',
        started_at: expect.any(String),
        duration_ms: expect.any(Number),
        response_status: 200,
        error_class: null,
        error: null,
        resolved_address: '127.0.0.1',
        response_excerpt: 'ok',
        succeeded: true,
      },
    ]);
    const sent = received.find((r) => r.headers['x-event-id'] === delivery.event_id)!;
    expect(sent.path).toBe('/a');
    expect(sent.headers['x-event-type']).toBe('webhook.ping');
    expect(
      signatureVerifies(sent.headers['service-signature'] as string, sent.body, tenantA.signingSecret),
    ).toBe(true);
    expect(validates('WebhookPingEvent', JSON.parse(sent.body))).toBe('valid');
    expect(JSON.parse(sent.body).data.endpoint_id).toBe(endpointA);

    const callback = await get(`/v1/webhook-deliveries/${callbackDelivery}`, tenantA.apiKey);
    expect(callback.json().delivery).toMatchObject({ endpoint_id: null, transaction_id: TXN_1 });
  });

  it('replays a delivered delivery: pending at once, and the receiver gets the same event again', async () => {
    const before = (await get(`/v1/webhook-deliveries/${firstPing}`, tenantA.apiKey)).json().delivery;
    const sentBefore = received.filter((r) => r.headers['x-event-id'] === before.event_id);
    expect(sentBefore).toHaveLength(1);

    const res = await replay(firstPing, tenantA.apiKey);
    expect(res.status).toBe(200);
    expect(validates('WebhookDeliveryReplayResponse', res.json())).toBe('valid');
    expect(res.json().delivery).toMatchObject({ id: firstPing, event_id: before.event_id, attempts: 0 });
    expect(['pending', 'delivering']).toContain(res.json().delivery.status);
    expect(Math.abs(Date.parse(res.json().delivery.next_attempt_at) - Date.now())).toBeLessThan(5_000);

    const after = await waitDelivered(firstPing, tenantA.apiKey, 2);
    const sent = received.filter((r) => r.headers['x-event-id'] === before.event_id);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(
      signatureVerifies(
        sent[1]!.headers['service-signature'] as string,
        sent[1]!.body,
        tenantA.signingSecret,
      ),
    ).toBe(true);
    expect(after.attempts).toBe(1);
    expect(
      after.attempt_log.map((a: { attempt_number: number; trigger: string }) => [
        a.attempt_number,
        a.trigger,
      ]),
    ).toEqual([
      [1, 'ping'],
      [1, 'replay'],
    ]);

    // `{}` and an empty JSON body are accepted too (two deliveries: one replays once per interval).
    const endpointDelivery = made.find((id, i) => i < 2 && id !== callbackDelivery)!;
    for (const [id, body] of [
      [made[3]!, '{}'],
      [endpointDelivery, ''],
    ] as const) {
      await waitDelivered(id, tenantA.apiKey);
      expect((await replay(id, tenantA.apiKey, body)).status).toBe(200);
      await waitDelivered(id, tenantA.apiKey, 2);
    }
  });

  it('refuses a replay sooner than the interval after the last one: 429 with Retry-After, admin API too', async () => {
    // made[3] was replayed by the test above; its replay has been delivered, so it is not in flight.
    const id = made[3]!;
    const refused = await replay(id, tenantA.apiKey);
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(Math.ceil(REPLAY_INTERVAL_MS / 1000));
    expect(refused.json()).toEqual({
      _tag: 'DeliveryReplayTooSoon',
      type: 'DeliveryReplayTooSoon',
      message: `The delivery was replayed less than ${REPLAY_INTERVAL_MS / 1000} s ago; replay it again in ${seconds} s.`,
      docs_url: expect.stringMatching(/\/errors#DeliveryReplayTooSoon$/),
      request_id: refused.headers.get('x-request-id'),
      retryAfter: seconds,
    });
    expect(validates('ErrorBody', refused.json())).toBe('valid');
    expect(refused.headers.get('x-ratelimit-limit')).not.toBeNull();

    // The operator's replay is held to the same rule, by the webhook service that owns it.
    const byOperator = await admin.replayWebhookDelivery({ deliveryId: id }).then(
      () => undefined,
      (err: unknown) => ConnectError.from(err),
    );
    expect(byOperator?.code).toBe(Code.ResourceExhausted);
    expect(Number(byOperator?.metadata.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Nothing moved; once the interval is over the replay is accepted.
    const unchanged = (await get(`/v1/webhook-deliveries/${id}`, tenantA.apiKey)).json().delivery;
    expect(unchanged).toMatchObject({ status: 'delivered', attempts: 1 });
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    expect((await replay(id, tenantA.apiKey)).status).toBe(200);
    await waitDelivered(id, tenantA.apiKey, 3);
  });

  it('refuses to replay a delivery in flight with 409 DeliveryInFlight', async () => {
    const ping = await admin.pingWebhookEndpoint({ endpointId: hangEndpointA });
    const id = ping.delivery!.id;
    const refused = await replay(id, tenantA.apiKey);
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({
      _tag: 'DeliveryInFlight',
      type: 'DeliveryInFlight',
      docs_url: expect.stringMatching(/\/errors#DeliveryInFlight$/),
    });
    // Still refused once the attempt is under way (the receiver holds it open).
    await waitFor('the held request', async () =>
      received.some((r) => r.path === '/hang') ? true : undefined,
    );
    const delivering = await waitFor('delivering', async () => {
      const d = (await get(`/v1/webhook-deliveries/${id}`, tenantA.apiKey)).json().delivery;
      return d.status === 'delivering' ? d : undefined;
    });
    expect(delivering.attempt_log).toEqual([]);
    expect((await replay(id, tenantA.apiKey)).status).toBe(409);
    const listed = await get('/v1/webhook-deliveries?status=delivering', tenantA.apiKey);
    expect(listed.json().deliveries.map((d: { id: string }) => d.id)).toEqual([id]);
  });

  it("answers 404 for another tenant's delivery, an unknown id and a malformed one", async () => {
    const statuses = async (id: string, apiKey: string) => [
      (await get(`/v1/webhook-deliveries/${id}`, apiKey)).status,
      (await replay(id, apiKey)).status,
    ];
    expect(await statuses(callbackDelivery, tenantB.apiKey)).toEqual([404, 404]);
    expect(await statuses(firstPing, tenantB.apiKey)).toEqual([404, 404]);
    expect(await statuses('whd_01JE0000000000000000000000', tenantA.apiKey)).toEqual([404, 404]);
    expect(await statuses('whd_not-a-delivery', tenantA.apiKey)).toEqual([404, 404]);
    const notFound = await get(`/v1/webhook-deliveries/${firstPing}`, tenantB.apiKey);
    expect(notFound.json()._tag).toBe('NotFoundError');

    // Tenant B sees only its own deliveries.
    const ping = await admin.pingWebhookEndpoint({ endpointId: endpointB });
    const listB = await get('/v1/webhook-deliveries', tenantB.apiKey);
    expect(listB.json().deliveries.map((d: { id: string }) => d.id)).toEqual([ping.delivery!.id]);
    expect(
      (await get(`/v1/webhook-deliveries?transaction_id=${TXN_1}`, tenantB.apiKey)).json().deliveries,
    ).toEqual([]);
  });

  it('signs with both secrets during a rotation grace period, then with the new one only', async () => {
    const graced = await admin.rotateSigningSecret({ tenantId: tenantB.tenantId, gracePeriodSeconds: 3600 });
    expect(graced.previousExpiresAt).toBeDefined();
    const ping = await admin.pingWebhookEndpoint({ endpointId: endpointB });
    const delivered = await waitDelivered(ping.delivery!.id, tenantB.apiKey);
    const sent = received.find((r) => r.headers['x-event-id'] === delivered.event_id)!;
    const header = sent.headers['service-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(signatureVerifies(header, sent.body, tenantB.signingSecret)).toBe(true);
    expect(signatureVerifies(header, sent.body, graced.signingSecret)).toBe(true);

    const immediate = await admin.rotateSigningSecret({ tenantId: tenantB.tenantId, gracePeriodSeconds: 0 });
    expect(immediate.previousExpiresAt).toBeUndefined();
    const next = await admin.pingWebhookEndpoint({ endpointId: endpointB });
    const nextDelivered = await waitDelivered(next.delivery!.id, tenantB.apiKey);
    const nextSent = received.find((r) => r.headers['x-event-id'] === nextDelivered.event_id)!;
    const nextHeader = nextSent.headers['service-signature'] as string;
    expect(nextHeader.match(/v1=/g)).toHaveLength(1);
    expect(signatureVerifies(nextHeader, nextSent.body, immediate.signingSecret)).toBe(true);
    expect(signatureVerifies(nextHeader, nextSent.body, graced.signingSecret)).toBe(false);
  });

  it('lets the operator read and replay a delivery of any tenant through the admin API', async () => {
    const shown = await admin.getWebhookDelivery({ deliveryId: callbackDelivery });
    expect(shown.delivery).toMatchObject({ id: callbackDelivery, tenantId: tenantA.tenantId });
    expect(shown.attempts.length).toBeGreaterThanOrEqual(1);
    const listed = await admin.listWebhookDeliveries({ tenantId: tenantA.tenantId, transactionId: TXN_1 });
    expect(listed.deliveries.map((d) => d.id).sort()).toEqual([made[0], made[1]].sort());
    const replayed = await admin.replayWebhookDelivery({ deliveryId: callbackDelivery });
    expect(replayed.delivery?.attempts).toBe(0);
    await waitDelivered(callbackDelivery, tenantA.apiKey, 2);
  });
});
