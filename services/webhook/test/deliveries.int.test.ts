import { randomBytes, randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import { type Timestamp, timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, readErrorDetail } from '@qr-payout/platform/errors';
import { createMemoryBus, TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { newId } from '@qr-payout/platform/ids';
import { type TransactionEvent, TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { TransactionSchema, TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import {
  type Delivery,
  type DeliveryAttempt,
  DeliveryStatus,
  type GetDeliveryResponse,
  RetryStrategy,
  WebhookService,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { testInfra } from '@qr-payout/test-kit/infra';
import { failure, startOnFreshSchema } from '@qr-payout/test-kit/service';
import pg from 'pg';
import { baseDelayMs } from '../src/deliveries/schedule';
import { KEPT_EARLIER_ATTEMPTS } from '../src/deliveries/store';
import { DISABLED_AFTER_FAILING } from '../src/endpoints/service';
import { generateSealingKey, loadWebhookConfig, type RunningWebhook, startWebhook } from '../src/index';
import { type ReceivedRequest, type Receiver, type Route, startReceiver } from './support/receiver';

// Deliveries end to end inside one process: the webhook service (dispatcher and worker) against
// real PostgreSQL, fed TransactionEvents through an in-memory bus, delivering to a local scripted
// receiver that verifies every signature independently of the service's code. The retry schedule
// is shrunk by WEBHOOK_RETRY_SCALE so the whole 16-attempt standard series takes about 10 s.

jest.setTimeout(45_000);

// 5 min -> 6 ms, 12 h -> 864 ms; the standard schedule's horizon (137.6 h) -> about 9.9 s.
const RETRY_SCALE = 2e-5;
// How late an attempt may start after its due time: the worker polls every 50 ms, and on a
// loaded 2-core machine (integration suites run two at a time beside PostgreSQL and Kafka) a timer
// fires up to ~150 ms late. Early is never allowed beyond the clock's resolution.
const LATE_SLACK_MS = 250;
// started_at has millisecond resolution and duration_ms is rounded to the millisecond.
const CLOCK_RESOLUTION_MS = 2;
// The default WEBHOOK_AUTO_DISABLE_HOURS (docs/api/webhooks.md "Auto-disable": 5 days) under
// RETRY_SCALE: 8.64 s.
const AUTO_DISABLE_MS = 120 * 3_600_000 * RETRY_SCALE;
const POLL_MS = 25;
// WEBHOOK_REPLAY_MIN_INTERVAL_MS of the main instance: short, so the test waits it out.
const REPLAY_INTERVAL_MS = 1_500;

type WebhookClient = ReturnType<typeof createGrpcClient<typeof WebhookService>>;

type Instance = {
  schema: string;
  bus: ReturnType<typeof createMemoryBus>;
  webhook: RunningWebhook;
  client: WebhookClient;
};

type DeliveryRecord = {
  id: string;
  endpoint_id: string | null;
  url: string;
  status: string;
  attempts: number;
  transaction_id: string | null;
};

const instances: Instance[] = [];
const gates: Array<() => void> = [];
let pool: pg.Pool;
let receiver: Receiver;
// Three services, each in its own schema with its own bus (they would otherwise share the
// dispatcher's consumer group): most cases; auto-disable at its default; the egress guard on.
let main: Instance;
let disabling: Instance;
let guarded: Instance;

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const bus = createMemoryBus();
  const webhook = await startOnFreshSchema(
    `webhook_dl_${name}`,
    (serviceEnv) => startWebhook(loadWebhookConfig(serviceEnv), { bus }),
    {
      DB_POOL_MAX: '4',
      WEBHOOK_SECRETS_KEY: generateSealingKey(),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCALE: String(RETRY_SCALE),
      WEBHOOK_POLL_MS: '50',
      ...env,
    },
  );
  const client = createGrpcClient(WebhookService, {
    baseUrl: webhook.url,
    timeoutMs: 5_000,
  });
  const instance = { schema: webhook.schema.name, bus, webhook, client };
  instances.push(instance);
  return instance;
}

// ---------------------------------------------------------------------------------------------
// Helpers

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value (not undefined or false), or fails at the deadline. */
async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(POLL_MS);
  }
}

/** A promise and the function that settles it: holds a receiver's answer. */
function gate(): { promise: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  gates.push(release);
  return { promise, release };
}

/** A unique path prefix per test, so routes of one shared receiver never collide. */
const prefix = (name: string) => `/${name}-${randomBytes(4).toString('hex')}`;

async function newTenant(instance: Instance): Promise<{ tenantId: string; secret: string }> {
  const tenantId = `ten_dl${randomBytes(6).toString('hex')}`;
  const { secret } = await instance.client.rotateSigningSecret({ tenantId });
  return { tenantId, secret };
}

async function createEndpoint(
  instance: Instance,
  req: {
    tenantId: string;
    url: string;
    eventTypes?: string[];
    headers?: Array<{ name: string; value: string }>;
    retryStrategy?: RetryStrategy;
  },
): Promise<string> {
  const { endpoint } = await instance.client.createEndpoint(req);
  if (!endpoint) throw new Error('CreateEndpoint returned no endpoint');
  return endpoint.id;
}

type EventOptions = {
  tenantId: string;
  transactionId?: string;
  callbackUrl?: string;
  occurredAt?: Date;
};

function completedEvent(opts: EventOptions & { reference?: string; settledAt?: Date }): TransactionEvent {
  const occurredAt = opts.occurredAt ?? new Date();
  return create(TransactionEventSchema, {
    eventId: randomUUID(),
    eventType: 'transaction.completed',
    schemaVersion: '1',
    occurredAt: timestampFromDate(occurredAt),
    tenantId: opts.tenantId,
    transaction: create(TransactionSchema, {
      id: opts.transactionId ?? newId('txn'),
      tenantId: opts.tenantId,
      instructionId: newId('ins'),
      status: TransactionStatus.COMPLETED,
      rail: 'pix',
      result: {
        reference: opts.reference ?? `E2E${randomBytes(8).toString('hex')}`,
        settledAt: timestampFromDate(opts.settledAt ?? occurredAt),
      },
      callbackUrl: opts.callbackUrl ?? '',
    }),
  });
}

function failedEvent(opts: EventOptions): TransactionEvent {
  return create(TransactionEventSchema, {
    eventId: randomUUID(),
    eventType: 'transaction.failed',
    schemaVersion: '1',
    occurredAt: timestampFromDate(opts.occurredAt ?? new Date()),
    tenantId: opts.tenantId,
    transaction: create(TransactionSchema, {
      id: opts.transactionId ?? newId('txn'),
      tenantId: opts.tenantId,
      instructionId: newId('ins'),
      status: TransactionStatus.FAILED,
      rail: 'pix',
      error: { reason: 'account closed', code: 'AC04', partnerStatus: 'RJCT' },
      callbackUrl: opts.callbackUrl ?? '',
    }),
  });
}

async function publish(instance: Instance, ...events: TransactionEvent[]): Promise<void> {
  await instance.bus.publish(
    TRANSACTION_EVENTS_TOPIC,
    events.map((event) => ({
      key: event.transaction?.id ?? '',
      value: toBinary(TransactionEventSchema, event),
      headers: {},
    })),
  );
}

async function rowsOfEvent(instance: Instance, eventId: string): Promise<DeliveryRecord[]> {
  const { rows } = await pool.query<DeliveryRecord>(
    `SELECT id, endpoint_id, url, status, attempts, transaction_id
     FROM "${instance.schema}".deliveries WHERE event_id = $1 ORDER BY id`,
    [eventId],
  );
  return rows;
}

/** The deliveries of an event once it has `count` of them and all are `status`. */
function eventSettled(
  instance: Instance,
  eventId: string,
  count: number,
  status = 'delivered',
  timeoutMs?: number,
): Promise<DeliveryRecord[]> {
  return waitFor(
    `${count} ${status} deliveries of event ${eventId}`,
    async () => {
      const rows = await rowsOfEvent(instance, eventId);
      return rows.length === count && rows.every((row) => row.status === status) && rows;
    },
    timeoutMs,
  );
}

const TERMINAL = new Set([DeliveryStatus.DELIVERED, DeliveryStatus.FAILED, DeliveryStatus.EXHAUSTED]);

/** GetDelivery once `done` holds for the delivery (by default: it is terminal). */
function deliveryWhen(
  instance: Instance,
  tenantId: string,
  deliveryId: string,
  done: (delivery: Delivery) => boolean = (delivery) => TERMINAL.has(delivery.status),
  timeoutMs?: number,
): Promise<GetDeliveryResponse> {
  return waitFor(
    `delivery ${deliveryId}`,
    async () => {
      const res = await instance.client.getDelivery({ tenantId, deliveryId });
      return res.delivery && done(res.delivery) && res;
    },
    timeoutMs,
  );
}

/** The coded error a call was refused with (fails the test when it succeeded). */
async function refusal(call: Promise<unknown>) {
  const detail = readErrorDetail(await failure(call));
  return { code: detail?.code, tag: detail?.tag, metadata: detail?.metadata };
}

const ms = (ts: Timestamp | undefined) => (ts ? timestampDate(ts).getTime() : Number.NaN);
const eventIdOf = (req: ReceivedRequest) => req.headers['x-event-id'];
const requestsOf = (route: Route, eventId: string) => route.requests.filter((r) => eventIdOf(r) === eventId);

/**
 * Every wait between two attempts (the next one's start minus the end of the one before) against
 * the schedule of docs/api/webhooks.md "Retries" under RETRY_SCALE: at least the jittered minimum
 * (0.8 × base), at most the jittered maximum (1.2 × base) plus the worker's poll slack. Returns the
 * waits out of bounds.
 */
function offSchedule(attempts: DeliveryAttempt[], strategy: 'standard' | 'extended'): string[] {
  const problems: string[] = [];
  for (let made = 1; made < attempts.length; made++) {
    const previous = attempts[made - 1]!;
    const next = attempts[made]!;
    const gap = ms(next.startedAt) - ms(previous.startedAt) - previous.durationMs;
    const scaled = (baseDelayMs(strategy, made) ?? Number.NaN) * RETRY_SCALE;
    const low = 0.8 * scaled - CLOCK_RESOLUTION_MS;
    const high = 1.2 * scaled + LATE_SLACK_MS;
    if (!(gap >= low && gap <= high)) {
      problems.push(`before attempt ${made + 1}: waited ${gap} ms, expected ${low}..${high} ms`);
    }
  }
  return problems;
}

function envelopeOf(body: Buffer): Record<string, unknown> {
  return JSON.parse(body.toString('utf8')) as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// The two long scenarios (retry series of about 10 s) start as soon as the services run, so they
// proceed while the other cases do; their tests, declared last, await and check them.

type ExhaustionResult = {
  standard: GetDeliveryResponse;
  extended: GetDeliveryResponse;
  callback: GetDeliveryResponse;
  routes: { standard: Route; extended: Route; callback: Route };
  secret: string;
};

async function exhaustionScenario(): Promise<ExhaustionResult> {
  const { tenantId, secret } = await newTenant(main);
  const p = prefix('exhaust');
  const routes = {
    standard: receiver.route(`${p}/standard`, { secrets: [secret], answers: [500] }),
    extended: receiver.route(`${p}/extended`, { secrets: [secret], answers: [500] }),
    callback: receiver.route(`${p}/callback`, { secrets: [secret], answers: [500] }),
  };
  const standardId = await createEndpoint(main, {
    tenantId,
    url: receiver.url(`${p}/standard`),
    retryStrategy: RetryStrategy.STANDARD,
  });
  const extendedId = await createEndpoint(main, {
    tenantId,
    url: receiver.url(`${p}/extended`),
    retryStrategy: RetryStrategy.EXTENDED,
  });
  const event = completedEvent({ tenantId, callbackUrl: receiver.url(`${p}/callback`) });
  await publish(main, event);
  const rows = await waitFor('the three deliveries', async () => {
    const found = await rowsOfEvent(main, event.eventId);
    return found.length === 3 && found;
  });
  const idOf = (endpointId: string | null) => rows.find((row) => row.endpoint_id === endpointId)!.id;
  const [standard, extended, callback] = await Promise.all(
    [idOf(standardId), idOf(extendedId), idOf(null)].map((id) =>
      deliveryWhen(main, tenantId, id, undefined, 30_000),
    ),
  );
  return { standard: standard!, extended: extended!, callback: callback!, routes, secret };
}

type AutoDisableResult = {
  tenantId: string;
  endpointId: string;
  route: Route;
  first: { eventId: string; deliveryId: string };
  second: { eventId: string; deliveryId: string };
  disabledAt: Date;
};

async function autoDisableScenario(): Promise<AutoDisableResult> {
  const { tenantId, secret } = await newTenant(disabling);
  const p = prefix('disable');
  const route = receiver.route(`${p}/e`, { secrets: [secret], answers: [500] });
  const endpointId = await createEndpoint(disabling, { tenantId, url: receiver.url(`${p}/e`) });
  const firstEvent = completedEvent({ tenantId });
  await publish(disabling, firstEvent);
  const [firstRow] = await waitFor('the first delivery failing', async () => {
    const rows = await rowsOfEvent(disabling, firstEvent.eventId);
    return rows[0] && rows[0].attempts >= 2 && rows;
  });
  const secondEvent = failedEvent({ tenantId });
  await publish(disabling, secondEvent);
  const [secondRow] = await waitFor('the second delivery', async () => {
    const rows = await rowsOfEvent(disabling, secondEvent.eventId);
    return rows.length === 1 && rows;
  });
  await Promise.all(
    [firstRow!.id, secondRow!.id].map((id) =>
      deliveryWhen(disabling, tenantId, id, undefined, AUTO_DISABLE_MS + 15_000),
    ),
  );
  const { rows } = await pool.query<{ updated_at: Date }>(
    `SELECT updated_at FROM "${disabling.schema}".endpoints WHERE id = $1`,
    [endpointId],
  );
  return {
    tenantId,
    endpointId,
    route,
    first: { eventId: firstEvent.eventId, deliveryId: firstRow!.id },
    second: { eventId: secondEvent.eventId, deliveryId: secondRow!.id },
    disabledAt: rows[0]!.updated_at,
  };
}

let exhaustion: Promise<ExhaustionResult>;
let autoDisable: Promise<AutoDisableResult>;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: testInfra.databaseUrl, max: 4 });
  receiver = await startReceiver();
  [main, disabling, guarded] = await Promise.all([
    // Far beyond the schedule's horizon: an always-failing endpoint exhausts before it is disabled.
    startInstance('main', {
      WEBHOOK_AUTO_DISABLE_HOURS: '100000',
      WEBHOOK_REPLAY_MIN_INTERVAL_MS: String(REPLAY_INTERVAL_MS),
    }),
    startInstance('disable', {}),
    startInstance('guard', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }),
  ]);
  exhaustion = exhaustionScenario();
  autoDisable = autoDisableScenario();
  // Awaited by their tests; meanwhile a failure must not count as unhandled.
  exhaustion.catch(() => undefined);
  autoDisable.catch(() => undefined);
}, 30_000);

afterAll(async () => {
  for (const release of gates) release();
  // Let the long scenarios end before their services close (they fail fast if a test broke).
  await Promise.allSettled([exhaustion, autoDisable]);
  // stop() also drops the instance's schema.
  await Promise.all(instances.map((instance) => instance.webhook.stop()));
  await Promise.all(instances.map((instance) => instance.bus.close()));
  await closeGrpcClients();
  await receiver?.close();
  await pool?.end();
}, 60_000);

// ---------------------------------------------------------------------------------------------

describe('dispatch to subscriptions', () => {
  it('sends an event to the subscribed enabled endpoints and the callback_url, signed, same bytes', async () => {
    const { tenantId, secret } = await newTenant(main);
    const p = prefix('subs');
    const routes = {
      a: receiver.route(`${p}/a`, { secrets: [secret] }),
      b: receiver.route(`${p}/b`, { secrets: [secret] }),
      c: receiver.route(`${p}/c`, { secrets: [secret] }),
      callback: receiver.route(`${p}/callback`, { secrets: [secret] }),
    };
    const endpointA = await createEndpoint(main, {
      tenantId,
      url: receiver.url(`${p}/a`),
      eventTypes: ['*'],
      headers: [{ name: 'Authorization', value: 'Bearer x' }],
    });
    const endpointB = await createEndpoint(main, {
      tenantId,
      url: receiver.url(`${p}/b`),
      eventTypes: ['transaction.failed'],
    });
    const endpointC = await createEndpoint(main, {
      tenantId,
      url: receiver.url(`${p}/c`),
      eventTypes: ['transaction.completed'],
    });
    await main.client.setEndpointEnabled({ endpointId: endpointC, enabled: false });

    const occurredAt = new Date(Date.now() - 1_000);
    const settledAt = new Date(Date.now() - 2_000);
    const completed = completedEvent({
      tenantId,
      callbackUrl: receiver.url(`${p}/callback`),
      occurredAt,
      settledAt,
      reference: 'E18236120202501011200s0123456789',
    });
    await publish(main, completed);
    const rows = await eventSettled(main, completed.eventId, 2);
    expect(rows.map((row) => row.endpoint_id).sort()).toEqual([endpointA, null].sort());
    expect(rows.find((row) => row.endpoint_id === null)?.url).toBe(receiver.url(`${p}/callback`));

    expect(routes.a.requests).toHaveLength(1);
    expect(routes.callback.requests).toHaveLength(1);
    expect(routes.b.requests).toHaveLength(0);
    expect(routes.c.requests).toHaveLength(0);
    const [atA, atCallback] = [routes.a.requests[0]!, routes.callback.requests[0]!];
    expect(atA.headers['authorization']).toBe('Bearer x');
    expect(atCallback.headers['authorization']).toBeUndefined();
    for (const req of [atA, atCallback]) {
      expect(req.verified).toBe(true);
      expect(req.signedWith).toEqual([secret]);
      expect(req.headers['x-event-id']).toBe(completed.eventId);
      expect(req.headers['content-type']).toBe('application/json');
    }
    expect(atA.body.equals(atCallback.body)).toBe(true);
    const txn = completed.transaction!;
    expect(envelopeOf(atA.body)).toEqual({
      schema_version: '1',
      event_id: completed.eventId,
      event_type: 'transaction.completed',
      occurred_at: occurredAt.toISOString(),
      data: {
        transaction_id: txn.id,
        instruction_id: txn.instructionId,
        status: 'completed',
        result: { reference: 'E18236120202501011200s0123456789', settledAt: settledAt.toISOString() },
        error: null,
      },
    });

    const failed = failedEvent({ tenantId, callbackUrl: receiver.url(`${p}/callback`) });
    await publish(main, failed);
    const failedRows = await eventSettled(main, failed.eventId, 3);
    expect(failedRows.map((row) => row.endpoint_id).sort()).toEqual([endpointA, endpointB, null].sort());
    const failedRequests = [routes.a, routes.b, routes.callback].map((route) =>
      requestsOf(route, failed.eventId),
    );
    expect(failedRequests.map((requests) => requests.length)).toEqual([1, 1, 1]);
    expect(routes.c.requests).toHaveLength(0);
    const bodies = failedRequests.map((requests) => requests[0]!.body);
    expect(bodies[1]!.equals(bodies[0]!) && bodies[2]!.equals(bodies[0]!)).toBe(true);
    expect(envelopeOf(bodies[0]!)).toMatchObject({
      event_id: failed.eventId,
      event_type: 'transaction.failed',
      data: {
        transaction_id: failed.transaction!.id,
        status: 'failed',
        result: null,
        error: { reason: 'account closed', code: 'AC04', partnerStatus: 'RJCT' },
      },
    });
  });

  it('creates no second delivery when the same message is delivered twice', async () => {
    const { tenantId, secret } = await newTenant(main);
    const p = prefix('redeliver');
    const route = receiver.route(`${p}/e`, { secrets: [secret] });
    const callback = receiver.route(`${p}/callback`, { secrets: [secret] });
    await createEndpoint(main, { tenantId, url: receiver.url(`${p}/e`) });
    const event = completedEvent({ tenantId, callbackUrl: receiver.url(`${p}/callback`) });
    const sentinel = completedEvent({ tenantId });
    // The same bytes twice, as Kafka redelivers an uncommitted message; then a later event; the
    // bus hands them to the group in order, so once the sentinel has its delivery the copies were
    // both handled.
    await publish(main, event, event);
    await publish(main, sentinel);
    await eventSettled(main, sentinel.eventId, 1);
    const rows = await eventSettled(main, event.eventId, 2);
    expect(rows).toHaveLength(2);
    expect(requestsOf(route, event.eventId)).toHaveLength(1);
    expect(requestsOf(callback, event.eventId)).toHaveLength(1);
    // Telemetry is off here: the rows store no trace context (docs/architecture.md "Traces").
    const { rows: traced } = await pool.query(
      `SELECT traceparent, tracestate FROM "${main.schema}".deliveries WHERE event_id = $1`,
      [event.eventId],
    );
    expect(traced).toEqual([
      { traceparent: null, tracestate: null },
      { traceparent: null, tracestate: null },
    ]);
  });
});

describe('retries', () => {
  it('retries on the schedule until the receiver answers 2xx', async () => {
    const { tenantId, secret } = await newTenant(main);
    const p = prefix('retry');
    const route = receiver.route(`${p}/e`, { secrets: [secret], answers: [500, 500, 500, 200] });
    await createEndpoint(main, { tenantId, url: receiver.url(`${p}/e`) });
    const event = completedEvent({ tenantId });
    await publish(main, event);
    const [row] = await eventSettled(main, event.eventId, 1);
    const { delivery, attempts } = await main.client.getDelivery({ tenantId, deliveryId: row!.id });
    expect(delivery).toMatchObject({
      status: DeliveryStatus.DELIVERED,
      attempts: 4,
      lastResponseStatus: 200,
    });
    expect(
      attempts.map((a) => [a.attemptNumber, a.trigger, a.responseStatus, a.errorClass, a.succeeded]),
    ).toEqual([
      [1, 'scheduled', 500, 'http_status', false],
      [2, 'scheduled', 500, 'http_status', false],
      [3, 'scheduled', 500, 'http_status', false],
      [4, 'scheduled', 200, '', true],
    ]);
    expect(offSchedule(attempts, 'standard')).toEqual([]);
    expect(route.requests.map((r) => r.answeredStatus)).toEqual([500, 500, 500, 200]);
    // One body for the event, whatever the attempt; a fresh signature each time.
    const bodies = route.requests.map((r) => r.body.toString('hex'));
    expect(new Set(bodies).size).toBe(1);
    expect(route.requests.every((r) => r.verified)).toBe(true);
  });
});

describe('replay and listing', () => {
  let tenantId: string;
  let routes: { endpoint: Route; callback: Route; held: Route };
  let release: () => void;
  const events: Record<'x' | 'y' | 'z', TransactionEvent> = {} as never;
  const ids: Record<'xEndpoint' | 'xCallback' | 'y' | 'zEndpoint' | 'zHeld', string> = {} as never;

  beforeAll(async () => {
    const tenant = await newTenant(main);
    tenantId = tenant.tenantId;
    const p = prefix('replay');
    const held = gate();
    release = held.release;
    routes = {
      endpoint: receiver.route(`${p}/e`, { secrets: [tenant.secret] }),
      callback: receiver.route(`${p}/callback`, { secrets: [tenant.secret] }),
      held: receiver.route(`${p}/held`, { secrets: [tenant.secret], gate: held.promise }),
    };
    const endpointId = await createEndpoint(main, { tenantId, url: receiver.url(`${p}/e`) });
    events.x = completedEvent({ tenantId, callbackUrl: receiver.url(`${p}/callback`) });
    events.y = failedEvent({ tenantId });
    events.z = completedEvent({ tenantId, callbackUrl: receiver.url(`${p}/held`) });
    await publish(main, events.x, events.y, events.z);
    const x = await eventSettled(main, events.x.eventId, 2);
    const [y] = await eventSettled(main, events.y.eventId, 1);
    const z = await waitFor('the held delivery in flight', async () => {
      const rows = await rowsOfEvent(main, events.z.eventId);
      const byTarget = (mine: boolean) => rows.find((r) => (r.endpoint_id === endpointId) === mine);
      return (
        rows.length === 2 &&
        byTarget(true)?.status === 'delivered' &&
        byTarget(false)?.status === 'delivering' &&
        routes.held.requests.length === 1 && { endpoint: byTarget(true)!, held: byTarget(false)! }
      );
    });
    ids.xEndpoint = x.find((r) => r.endpoint_id === endpointId)!.id;
    ids.xCallback = x.find((r) => r.endpoint_id === null)!.id;
    ids.y = y!.id;
    ids.zEndpoint = z.endpoint.id;
    ids.zHeld = z.held.id;
  });

  afterAll(() => release());

  const list = async (filter: { transactionId?: string; status?: DeliveryStatus }) =>
    (await main.client.listDeliveries({ tenantId, ...filter })).deliveries.map((d) => d.id).sort();

  it('filters by transaction_id and status, combined', async () => {
    const txn = (key: 'x' | 'y' | 'z') => events[key].transaction!.id;
    expect(await list({ transactionId: txn('x') })).toEqual([ids.xEndpoint, ids.xCallback].sort());
    expect(await list({ transactionId: txn('z'), status: DeliveryStatus.DELIVERING })).toEqual([ids.zHeld]);
    expect(await list({ transactionId: txn('z'), status: DeliveryStatus.DELIVERED })).toEqual([
      ids.zEndpoint,
    ]);
    expect(await list({ transactionId: txn('y'), status: DeliveryStatus.DELIVERING })).toEqual([]);
    expect(await list({ status: DeliveryStatus.DELIVERED })).toEqual(
      [ids.xEndpoint, ids.xCallback, ids.y, ids.zEndpoint].sort(),
    );
    expect(await list({})).toEqual(Object.values(ids).sort());
    const other = `ten_dl${randomBytes(6).toString('hex')}`;
    expect((await main.client.listDeliveries({ tenantId: other })).deliveries).toEqual([]);
  });

  it('pages with limit 1: a next_cursor on every page but the last, no duplicates', async () => {
    for (const status of [undefined, DeliveryStatus.DELIVERED]) {
      const seen: string[] = [];
      let cursor = '';
      for (let page = 0; page < 10; page++) {
        const res = await main.client.listDeliveries({ tenantId, status, page: { limit: 1, cursor } });
        expect(res.deliveries).toHaveLength(1);
        seen.push(res.deliveries[0]!.id);
        cursor = res.pageInfo?.nextCursor ?? '';
        if (cursor === '') break;
      }
      const expected =
        status === undefined ? Object.values(ids) : [ids.xEndpoint, ids.xCallback, ids.y, ids.zEndpoint];
      expect(seen).toHaveLength(expected.length);
      expect([...seen].sort()).toEqual([...expected].sort());
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it('refuses to replay a delivery in flight: delivering, or pending', async () => {
    expect(await refusal(main.client.replayDelivery({ tenantId, deliveryId: ids.zHeld }))).toEqual({
      code: Code.FailedPrecondition,
      tag: 'DeliveryInFlight',
      metadata: { delivery_id: ids.zHeld, status: 'delivering' },
    });
    // A pending delivery, due in an hour (a retry waiting its turn).
    const pendingId = newId('whd');
    await pool.query(
      `INSERT INTO "${main.schema}".deliveries
         (id, tenant_id, event_id, event_type, transaction_id, url, next_attempt_at, payload)
       VALUES ($1, $2, $3, 'transaction.completed', $4, $5, now() + interval '1 hour', $6)`,
      [pendingId, tenantId, randomUUID(), newId('txn'), receiver.url('/never'), Buffer.from('{}')],
    );
    expect(await refusal(main.client.replayDelivery({ tenantId, deliveryId: pendingId }))).toEqual({
      code: Code.FailedPrecondition,
      tag: 'DeliveryInFlight',
      metadata: { delivery_id: pendingId, status: 'pending' },
    });
    await pool.query(`DELETE FROM "${main.schema}".deliveries WHERE id = $1`, [pendingId]);
    release();
    const { delivery } = await deliveryWhen(main, tenantId, ids.zHeld);
    expect(delivery?.status).toBe(DeliveryStatus.DELIVERED);
  });

  it("answers NotFoundError for another tenant's delivery", async () => {
    const other = `ten_dl${randomBytes(6).toString('hex')}`;
    const notFound = { code: Code.NotFound, tag: 'NotFoundError', metadata: { delivery_id: ids.xEndpoint } };
    expect(await refusal(main.client.replayDelivery({ tenantId: other, deliveryId: ids.xEndpoint }))).toEqual(
      notFound,
    );
    expect(await refusal(main.client.getDelivery({ tenantId: other, deliveryId: ids.xEndpoint }))).toEqual(
      notFound,
    );
    // Nothing moved.
    const { delivery } = await main.client.getDelivery({ tenantId, deliveryId: ids.xEndpoint });
    expect(delivery).toMatchObject({ status: DeliveryStatus.DELIVERED, attempts: 1 });
  });

  it('replays a delivered delivery: same event_id and body again, attempts reset', async () => {
    const eventId = events.x.eventId;
    const before = requestsOf(routes.endpoint, eventId);
    expect(before).toHaveLength(1);
    const { delivery: replayed } = await main.client.replayDelivery({ tenantId, deliveryId: ids.xEndpoint });
    expect(replayed).toMatchObject({
      id: ids.xEndpoint,
      status: DeliveryStatus.PENDING,
      attempts: 0,
      eventId,
    });
    const { delivery, attempts } = await deliveryWhen(main, tenantId, ids.xEndpoint);
    expect(delivery).toMatchObject({ status: DeliveryStatus.DELIVERED, attempts: 1, eventId });
    expect(attempts.map((a) => [a.attemptNumber, a.trigger, a.succeeded])).toEqual([
      [1, 'scheduled', true],
      [1, 'replay', true],
    ]);
    const after = requestsOf(routes.endpoint, eventId);
    expect(after).toHaveLength(2);
    expect(after[1]!.body.equals(after[0]!.body)).toBe(true);
    expect(after[1]!.verified).toBe(true);
    // The callback delivery of the same event was not touched.
    expect(requestsOf(routes.callback, eventId)).toHaveLength(1);
  });

  it('keeps the attempt log bounded across replays: the latest 100 of earlier series, the rest counted', async () => {
    // 150 attempts of earlier series, as many replays would leave (before the bound, ~3,700 made
    // GetDelivery's answer larger than a gRPC message may be); the last of those replays long ago.
    await pool.query(
      `INSERT INTO "${main.schema}".delivery_attempts (delivery_id, attempt_number, trigger, started_at, succeeded)
       SELECT $1, 1, 'replay', now() - make_interval(secs => 1000 - n), true FROM generate_series(1, 150) AS n`,
      [ids.xEndpoint],
    );
    await pool.query(
      `UPDATE "${main.schema}".deliveries SET last_replayed_at = now() - interval '1 hour' WHERE id = $1`,
      [ids.xEndpoint],
    );
    const before = await main.client.getDelivery({ tenantId, deliveryId: ids.xEndpoint });
    expect(before.attempts).toHaveLength(152);
    expect(before.earlierAttempts).toBe(0);
    await main.client.replayDelivery({ tenantId, deliveryId: ids.xEndpoint });
    const { delivery, attempts, earlierAttempts } = await deliveryWhen(main, tenantId, ids.xEndpoint);
    expect(delivery?.status).toBe(DeliveryStatus.DELIVERED);
    // The 100 latest of the 152 earlier ones, then this replay's one attempt.
    expect(attempts).toHaveLength(KEPT_EARLIER_ATTEMPTS + 1);
    expect(earlierAttempts).toBe(152 - KEPT_EARLIER_ATTEMPTS);
    expect(attempts.at(-1)).toMatchObject({ trigger: 'replay', succeeded: true });
  });
});

describe('replay interval (docs/api/webhooks.md "Webhook deliveries", Replay)', () => {
  let tenantId: string;
  let deliveryId: string;
  let replica: RunningWebhook;
  let replicaClient: WebhookClient;

  beforeAll(async () => {
    const tenant = await newTenant(main);
    tenantId = tenant.tenantId;
    const p = prefix('interval');
    receiver.route(`${p}/e`, { secrets: [tenant.secret] });
    await createEndpoint(main, { tenantId, url: receiver.url(`${p}/e`) });
    const event = completedEvent({ tenantId });
    await publish(main, event);
    const [row] = await eventSettled(main, event.eventId, 1);
    deliveryId = row!.id;
    // A second replica on the same schema, API only: the interval is the row's, not a process's.
    replica = await startWebhook(
      loadWebhookConfig({
        GRPC_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATABASE_URL: testInfra.databaseUrl,
        DB_SCHEMA: main.schema,
        DB_POOL_MAX: '2',
        WEBHOOK_SECRETS_KEY: generateSealingKey(),
        WEBHOOK_DISPATCHER_ENABLED: 'false',
        WEBHOOK_WORKER_ENABLED: 'false',
        RETENTION_ENABLED: 'false',
        WEBHOOK_REPLAY_MIN_INTERVAL_MS: String(REPLAY_INTERVAL_MS),
      }),
      { bus: main.bus },
    );
    replicaClient = createGrpcClient(WebhookService, { baseUrl: replica.url, timeoutMs: 5_000 });
  });

  afterAll(async () => {
    await replica?.stop();
  });

  const replayThrough = (client: WebhookClient) => client.replayDelivery({ tenantId, deliveryId });

  it('refuses a second replay sooner than the interval, on either replica, with its Retry-After; accepts it after', async () => {
    await replayThrough(main.client);
    const { attempts } = await deliveryWhen(main, tenantId, deliveryId);
    expect(attempts.map((a) => a.trigger)).toEqual(['scheduled', 'replay']);

    for (const client of [replicaClient, main.client]) {
      const refused = await failure(replayThrough(client));
      const detail = readErrorDetail(refused);
      expect(detail).toMatchObject({
        code: Code.ResourceExhausted,
        tag: 'DeliveryReplayTooSoon',
        metadata: { delivery_id: deliveryId },
      });
      expect(detail?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(detail?.retryAfterSeconds).toBeLessThanOrEqual(Math.ceil(REPLAY_INTERVAL_MS / 1000));
      expect(refused.metadata.get('retry-after')).toBe(String(detail?.retryAfterSeconds));
      expect(refused.rawMessage).toBe(
        `The delivery was replayed less than 1.5 s ago; replay it again in ${detail?.retryAfterSeconds} s.`,
      );
    }
    // Nothing moved.
    const unchanged = await main.client.getDelivery({ tenantId, deliveryId });
    expect(unchanged.delivery).toMatchObject({ status: DeliveryStatus.DELIVERED, attempts: 1 });
    expect(unchanged.attempts).toHaveLength(2);

    // Retry-After is whole seconds rounded up: waiting it out is never early.
    const wait = readErrorDetail(await failure(replayThrough(replicaClient)))?.retryAfterSeconds ?? 0;
    await sleep(wait * 1000);
    const { delivery } = await replayThrough(replicaClient);
    expect(delivery).toMatchObject({ status: DeliveryStatus.PENDING, attempts: 0 });
    const after = await deliveryWhen(main, tenantId, deliveryId);
    expect(after.attempts.map((a) => a.trigger)).toEqual(['scheduled', 'replay', 'replay']);
  });
});

describe('signing secret rotation', () => {
  it('signs with both secrets during the grace period, new first, then with the new one only', async () => {
    const { tenantId, secret: first } = await newTenant(main);
    const p = prefix('rotate');
    const route = receiver.route(`${p}/e`, { secrets: [first] });
    await createEndpoint(main, { tenantId, url: receiver.url(`${p}/e`) });

    const rotated = await main.client.rotateSigningSecret({ tenantId, gracePeriodSeconds: 3600 });
    const second = rotated.secret;
    route.secrets.push(second);
    expect(ms(rotated.previousExpiresAt) - Date.now()).toBeGreaterThan(3_500_000);
    const during = completedEvent({ tenantId });
    await publish(main, during);
    await eventSettled(main, during.eventId, 1);
    const [duringRequest] = requestsOf(route, during.eventId);
    expect(duringRequest?.signedWith).toEqual([second, first]);

    const third = (await main.client.rotateSigningSecret({ tenantId, gracePeriodSeconds: 0 })).secret;
    route.secrets.push(third);
    const after = completedEvent({ tenantId });
    await publish(main, after);
    await eventSettled(main, after.eventId, 1);
    const [afterRequest] = requestsOf(route, after.eventId);
    expect(afterRequest?.signedWith).toEqual([third]);
    expect(String(afterRequest?.headers['service-signature']).match(/v1=/g)).toHaveLength(1);
  });
});

describe('leases', () => {
  it('claims again a delivery whose worker died mid-attempt, and leaves a live lease alone', async () => {
    const { tenantId, secret } = await newTenant(main);
    const p = prefix('lease');
    const route = receiver.route(`${p}/e`, { secrets: [secret] });
    const endpointId = await createEndpoint(main, { tenantId, url: receiver.url(`${p}/e`) });
    const insert = async (leaseUntil: string, token: string) => {
      const event = completedEvent({ tenantId });
      const id = newId('whd');
      const payload = Buffer.from(JSON.stringify({ schema_version: '1', event_id: event.eventId, token }));
      await pool.query(
        `INSERT INTO "${main.schema}".deliveries (id, tenant_id, event_id, event_type, transaction_id,
           endpoint_id, url, status, next_attempt_at, lease_until, lease_token, payload)
         VALUES ($1, $2, $3, 'transaction.completed', $4, $5, $6, 'delivering', now(),
           now() + $7::interval, $8, $9)`,
        [
          id,
          tenantId,
          event.eventId,
          newId('txn'),
          endpointId,
          receiver.url(`${p}/e`),
          leaseUntil,
          token,
          payload,
        ],
      );
      return { id, eventId: event.eventId, payload };
    };
    const live = await insert('1 hour', 'alive');
    const dead = await insert('-1 second', 'dead');
    const [row] = await eventSettled(main, dead.eventId, 1);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1 });
    const [request] = requestsOf(route, dead.eventId);
    expect(request?.body.equals(dead.payload)).toBe(true);
    expect(request?.verified).toBe(true);
    // A few more polls: the live lease is still its owner's.
    await sleep(300);
    expect(await rowsOfEvent(main, live.eventId)).toMatchObject([{ status: 'delivering', attempts: 0 }]);
    expect(requestsOf(route, live.eventId)).toHaveLength(0);
    await pool.query(`DELETE FROM "${main.schema}".deliveries WHERE id = $1`, [live.id]);
  });
});

describe('egress guard', () => {
  it('fails a callback_url to localhost at once, without retry, and sends nothing', async () => {
    const { tenantId, secret } = await newTenant(guarded);
    const p = prefix('guard');
    const route = receiver.route(`${p}/x`, { secrets: [secret] });
    // This instance refuses private targets at registration too.
    expect(
      await refusal(guarded.client.createEndpoint({ tenantId, url: receiver.url(`${p}/x`) })),
    ).toMatchObject({ code: Code.InvalidArgument, tag: 'ValidationError' });

    const event = completedEvent({ tenantId, callbackUrl: `https://localhost:${receiver.port}${p}/x` });
    await publish(guarded, event);
    const [row] = await eventSettled(guarded, event.eventId, 1, 'failed');
    const { delivery, attempts } = await guarded.client.getDelivery({ tenantId, deliveryId: row!.id });
    expect(delivery).toMatchObject({ status: DeliveryStatus.FAILED, attempts: 1 });
    expect(delivery?.nextAttemptAt).toBeUndefined();
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ errorClass: 'refused_target', responseStatus: 0, succeeded: false });
    expect(route.requests).toHaveLength(0);
  });
});

describe('ping', () => {
  it('sends a signed webhook.ping to the endpoint, about no transaction', async () => {
    const { tenantId, secret } = await newTenant(main);
    const p = prefix('ping');
    const route = receiver.route(`${p}/e`, { secrets: [secret] });
    const endpointId = await createEndpoint(main, {
      tenantId,
      url: receiver.url(`${p}/e`),
      eventTypes: ['transaction.failed'],
    });
    const { delivery: pinged } = await main.client.pingEndpoint({ endpointId });
    expect(pinged).toMatchObject({ tenantId, endpointId, transactionId: '', eventType: 'webhook.ping' });
    const { delivery, attempts } = await deliveryWhen(main, tenantId, pinged!.id);
    expect(delivery).toMatchObject({ status: DeliveryStatus.DELIVERED, attempts: 1, transactionId: '' });
    expect(attempts.map((a) => a.trigger)).toEqual(['ping']);
    expect(route.requests).toHaveLength(1);
    const request = route.requests[0]!;
    expect(request.signedWith).toEqual([secret]);
    expect(request.headers['x-event-id']).toBe(pinged!.eventId);
    expect(envelopeOf(request.body)).toMatchObject({
      schema_version: '1',
      event_id: pinged!.eventId,
      event_type: 'webhook.ping',
      data: { endpoint_id: endpointId },
    });
  });
});

describe('exhaustion (WEBHOOK_AUTO_DISABLE_HOURS beyond the horizon)', () => {
  it('ends a standard delivery exhausted after 16 attempts, an extended one after 17, on schedule', async () => {
    const { standard, extended, callback, routes } = await exhaustion;
    const cases = [
      ['standard', standard, routes.standard, 16, 'standard'],
      ['extended', extended, routes.extended, 17, 'extended'],
      ['callback_url', callback, routes.callback, 16, 'standard'],
    ] as const;
    for (const [name, { delivery, attempts }, route, count, strategy] of cases) {
      expect({
        name,
        status: delivery?.status,
        attempts: delivery?.attempts,
        max: delivery?.maxAttempts,
      }).toEqual({ name, status: DeliveryStatus.EXHAUSTED, attempts: count, max: count });
      expect(delivery?.nextAttemptAt).toBeUndefined();
      expect(attempts.map((a) => a.attemptNumber)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(attempts.every((a) => a.responseStatus === 500 && a.errorClass === 'http_status')).toBe(true);
      expect({ name, off: offSchedule(attempts, strategy) }).toEqual({ name, off: [] });
      expect(route.requests).toHaveLength(count);
      expect(route.requests.every((r) => r.verified)).toBe(true);
    }
  });
});

describe('auto-disable (default 120 h, scaled)', () => {
  it('disables an always-failing endpoint, fails its deliveries; enable and replay delivers', async () => {
    const { tenantId, endpointId, route, first, second, disabledAt } = await autoDisable;
    const { endpoints } = await disabling.client.listEndpoints({ tenantId });
    expect(endpoints.find((e) => e.id === endpointId)).toMatchObject({
      enabled: false,
      disabledReason: DISABLED_AFTER_FAILING,
    });
    const firstGot = await disabling.client.getDelivery({ tenantId, deliveryId: first.deliveryId });
    const secondGot = await disabling.client.getDelivery({ tenantId, deliveryId: second.deliveryId });
    for (const { delivery } of [firstGot, secondGot]) {
      expect(delivery?.status).toBe(DeliveryStatus.FAILED);
      expect(delivery?.lastError).toMatch(/endpoint disabled/);
      expect(delivery?.attempts).toBeLessThan(16);
    }
    // Not before the endpoint had failed for the whole period.
    const firstFailure = ms(firstGot.attempts[0]?.startedAt);
    expect(disabledAt.getTime() - firstFailure).toBeGreaterThanOrEqual(AUTO_DISABLE_MS - CLOCK_RESOLUTION_MS);

    await disabling.client.setEndpointEnabled({ endpointId, enabled: true });
    route.answers = [200];
    const { delivery: replayed } = await disabling.client.replayDelivery({
      tenantId,
      deliveryId: first.deliveryId,
    });
    expect(replayed).toMatchObject({ status: DeliveryStatus.PENDING, attempts: 0 });
    const { delivery, attempts } = await deliveryWhen(disabling, tenantId, first.deliveryId);
    expect(delivery).toMatchObject({ status: DeliveryStatus.DELIVERED, attempts: 1, eventId: first.eventId });
    expect(attempts.at(-1)).toMatchObject({ trigger: 'replay', responseStatus: 200, succeeded: true });
    const sent = requestsOf(route, first.eventId);
    expect(sent.at(-1)?.answeredStatus).toBe(200);
    expect(sent.at(-1)?.body.equals(sent[0]!.body)).toBe(true);
  });
});

describe('the receiver', () => {
  it('verified the signature of every request, and saw none outside the scripted paths', () => {
    expect(receiver.all.filter((r) => !r.verified).map((r) => r.path)).toEqual([]);
    expect(receiver.all.filter((r) => r.answeredStatus === 404).map((r) => r.path)).toEqual([]);
  });
});
