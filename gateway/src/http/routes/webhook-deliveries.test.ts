import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { requestContext } from '@qr-payout/platform/context';
import { Code, serviceError } from '@qr-payout/platform/errors';
import {
  type Delivery,
  DeliverySchema,
  DeliveryStatus,
  type GetDeliveryRequest,
  type ListDeliveriesRequest,
  type ReplayDeliveryRequest,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { FastifyInstance } from 'fastify';
import type { PublicAppDeps } from '../app';
import { TEST_API_KEY as KEY, startRouteTestApp } from './test-app';

// The three delivery routes through the real app (auth, parsing, error registry) with a fake
// webhook client that records what it was asked.

const TENANT = 'ten_a';
const WHD = 'whd_01JD0000000000000000000001';
const WHD_IN_FLIGHT = 'whd_01JD0000000000000000000002';
const AT = timestampFromDate(new Date('2026-11-24T12:00:00.123Z'));

function delivery(id: string, status = DeliveryStatus.DELIVERED): Delivery {
  return create(DeliverySchema, {
    id,
    tenantId: TENANT,
    eventId: '6f1c2b1e-8d4a-4c1f-9e3b-2a7d5c9e0f11',
    eventType: 'transaction.completed',
    transactionId: 'txn_01JD0000000000000000000001',
    url: 'https://hooks.example.com/p',
    status,
    attempts: 1,
    maxAttempts: 16,
    createdAt: AT,
    updatedAt: AT,
  });
}

const calls: {
  list: ListDeliveriesRequest[];
  get: GetDeliveryRequest[];
  replay: ReplayDeliveryRequest[];
  /** The request context each replay ran in (the gRPC client sends its request id on). */
  replayContexts: unknown[];
} = { list: [], get: [], replay: [], replayContexts: [] };

function notFound(): never {
  throw serviceError('NotFoundError', 'delivery not found', { code: Code.NotFound, field: 'delivery_id' });
}

const webhook: PublicAppDeps['webhook'] = {
  listEndpoints: async () => {
    throw new Error('not reached');
  },
  listDeliveries: (async (req: ListDeliveriesRequest) => {
    calls.list.push(req);
    return { deliveries: [delivery(WHD)], pageInfo: { nextCursor: req.page?.cursor ? '' : 'c2' } };
  }) as never,
  getDelivery: (async (req: GetDeliveryRequest) => {
    calls.get.push(req);
    if (req.deliveryId !== WHD) notFound();
    return { delivery: delivery(WHD), attempts: [], earlierAttempts: 0 };
  }) as never,
  replayDelivery: (async (req: ReplayDeliveryRequest) => {
    calls.replay.push(req);
    calls.replayContexts.push(requestContext.get());
    if (req.deliveryId === WHD_IN_FLIGHT) {
      throw serviceError('DeliveryInFlight', 'delivery is pending', { code: Code.FailedPrecondition });
    }
    if (req.deliveryId !== WHD) notFound();
    return { delivery: delivery(WHD, DeliveryStatus.PENDING) };
  }) as never,
};

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  ({ app, base } = await startRouteTestApp({ webhook }, { tenantId: TENANT, rateLimitPerMinute: 1000 }));
});

afterAll(async () => {
  await app.close();
});

beforeEach(() => {
  calls.list.length = 0;
  calls.get.length = 0;
  calls.replay.length = 0;
  calls.replayContexts.length = 0;
});

async function call(path: string, init: { method?: string; body?: string; type?: string } = {}) {
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': KEY, ...(init.type ? { 'content-type': init.type } : {}) },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: bodies are asserted field by field
  return { status: res.status, body: (await res.json()) as any };
}

describe('GET /v1/webhook-deliveries', () => {
  it("asks for the key's tenant with the filters and the page, and answers next_cursor", async () => {
    const res = await call(
      '/v1/webhook-deliveries?status=failed&transaction_id=txn_01JD0000000000000000000009&limit=5',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deliveries: [expect.objectContaining({ id: WHD, status: 'delivered' })],
      next_cursor: 'c2',
      request_id: expect.any(String),
    });
    expect(calls.list).toHaveLength(1);
    expect(calls.list[0]).toMatchObject({
      tenantId: TENANT,
      transactionId: 'txn_01JD0000000000000000000009',
      status: DeliveryStatus.FAILED,
      page: { limit: 5, cursor: '' },
    });
    const last = await call('/v1/webhook-deliveries?cursor=c2');
    expect(last.body.next_cursor).toBeNull();
    expect(calls.list[1]).toMatchObject({
      status: DeliveryStatus.UNSPECIFIED,
      page: { limit: 0, cursor: 'c2' },
    });
  });

  it('refuses a malformed query with a ValidationError naming the parameter, without a call', async () => {
    for (const [query, field] of [
      ['status=lost', 'status'],
      ['limit=abc', 'limit'],
      ['transaction_id=txn_1', 'transaction_id'],
      ['sort=asc', 'sort'],
    ]) {
      const res = await call(`/v1/webhook-deliveries?${query}`);
      expect(res.status).toBe(400);
      expect(res.body._tag).toBe('ValidationError');
      expect(res.body.message.startsWith(field)).toBe(true);
    }
    expect(calls.list).toHaveLength(0);
  });
});

describe('GET /v1/webhook-deliveries/{id}', () => {
  it('answers the delivery with its attempt_log', async () => {
    const res = await call(`/v1/webhook-deliveries/${WHD}`);
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ id: WHD, attempt_log: [] });
    expect(calls.get[0]).toMatchObject({ tenantId: TENANT, deliveryId: WHD });
    // The public API never widens the scope beyond the key's tenant.
    expect(calls.get[0]).not.toHaveProperty('allTenants', true);
  });

  it('answers 404 for an unknown id and, without a call, for a malformed one', async () => {
    expect((await call('/v1/webhook-deliveries/whd_01JD0000000000000000000009')).status).toBe(404);
    expect(calls.get).toHaveLength(1);
    const malformed = await call('/v1/webhook-deliveries/whd_lowercase0000000000000000');
    expect(malformed.status).toBe(404);
    expect(malformed.body._tag).toBe('NotFoundError');
    expect(calls.get).toHaveLength(1);
  });
});

describe('POST /v1/webhook-deliveries/{id}/replay', () => {
  it('accepts no body, an empty JSON body and {}', async () => {
    for (const init of [
      {},
      { body: '', type: 'application/json' },
      { body: '{}', type: 'application/json' },
    ]) {
      const res = await call(`/v1/webhook-deliveries/${WHD}/replay`, { method: 'POST', ...init });
      expect(res.status).toBe(200);
      expect(res.body.delivery).toMatchObject({ id: WHD, status: 'pending' });
      expect(res.body.delivery).not.toHaveProperty('attempt_log');
    }
    expect(calls.replay).toEqual([
      expect.objectContaining({ tenantId: TENANT, deliveryId: WHD }),
      expect.objectContaining({ deliveryId: WHD }),
      expect.objectContaining({ deliveryId: WHD }),
    ]);
    expect(calls.replay[0]).not.toHaveProperty('allTenants', true);
    // The replay route lives in its own scope (its body parser); it still runs in the request context.
    expect(calls.replayContexts[0]).toEqual({ requestId: expect.any(String), tenantId: TENANT });
  });

  it('refuses a JSON body that is not an object: null, an array, a number (Schemathesis found null accepted)', async () => {
    for (const body of ['null', '[]', '1']) {
      const res = await call(`/v1/webhook-deliveries/${WHD}/replay`, {
        method: 'POST',
        body,
        type: 'application/json',
      });
      expect([body, res.status, res.body.message]).toEqual([
        body,
        400,
        'The replay takes no body; send none or {}.',
      ]);
    }
    expect(calls.replay).toHaveLength(0);
  });

  it('refuses a body with fields', async () => {
    const res = await call(`/v1/webhook-deliveries/${WHD}/replay`, {
      method: 'POST',
      body: '{"force":true}',
      type: 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('force is not a known field');
    expect(calls.replay).toHaveLength(0);
  });

  it('renders DeliveryInFlight as 409 and NotFound as 404', async () => {
    const inFlight = await call(`/v1/webhook-deliveries/${WHD_IN_FLIGHT}/replay`, { method: 'POST' });
    expect(inFlight.status).toBe(409);
    expect(inFlight.body).toMatchObject({ _tag: 'DeliveryInFlight', message: 'delivery is pending' });
    const missing = await call('/v1/webhook-deliveries/whd_01JD0000000000000000000009/replay', {
      method: 'POST',
    });
    expect(missing.status).toBe(404);
    const malformed = await call('/v1/webhook-deliveries/nope/replay', { method: 'POST' });
    expect(malformed.status).toBe(404);
    expect(calls.replay).toHaveLength(2);
  });

  it('keeps refusing an empty JSON body on the other routes', async () => {
    const res = await call('/v1/execute', { method: 'POST', body: '', type: 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is empty; send a JSON object.');
  });
});
