import { randomBytes, randomUUID } from 'node:crypto';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import * as grpc from '@grpc/grpc-js';
import { migrate } from '@qr-payout/platform/db';
import { Code, readErrorDetail } from '@qr-payout/platform/errors';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import {
  type ListEndpointsRequest,
  ListEndpointsRequestSchema,
  type ListEndpointsResponse,
  ListEndpointsResponseSchema,
  RetryStrategy,
  WebhookService,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { testInfra } from '@qr-payout/test-kit/infra';
import { freshSchema } from '@qr-payout/test-kit/schema';
import { databaseEnv, failure, serviceEnv } from '@qr-payout/test-kit/service';
import pg from 'pg';
import { createSealedBox } from '../src/crypto/sealed-box';
import {
  generateSealingKey,
  loadWebhookConfig,
  MIGRATIONS_DIR,
  type RunningWebhook,
  startWebhook,
} from '../src/index';

// The webhook service against real PostgreSQL, in a schema of its own (DB_SCHEMA), started as
// the sandbox and the e2e harness start it, and called over real gRPC.

const testSchema = freshSchema('webhook_it');
const schema = testSchema.name;
const secretsKey = generateSealingKey();
const sealedBox = createSealedBox([Buffer.from(secretsKey, 'base64')]);
const tenantId = `ten_it${randomBytes(6).toString('hex')}`;
const otherTenantId = `ten_it${randomBytes(6).toString('hex')}`;
const bearer = `Bearer tok_${randomBytes(16).toString('hex')}`;
const partnerKey = `pk_${randomBytes(16).toString('hex')}`;

let webhook: RunningWebhook;
let client: ReturnType<typeof createGrpcClient<typeof WebhookService>>;
let baseUrl: string;
let pool: pg.Pool;

/** The coded error a call was refused with (fails the test when it succeeded). */
async function refusal(call: Promise<unknown>) {
  const detail = readErrorDetail(await failure(call));
  return { code: detail?.code, tag: detail?.tag, field: detail?.field };
}

beforeAll(async () => {
  webhook = await startWebhook(
    loadWebhookConfig(
      serviceEnv({
        ...databaseEnv(schema),
        WEBHOOK_SECRETS_KEY: secretsKey,
        // The API alone: the dispatcher and worker have their own suite (deliveries.int.test.ts).
        WEBHOOK_DISPATCHER_ENABLED: 'false',
        WEBHOOK_WORKER_ENABLED: 'false',
      }),
    ),
  );
  baseUrl = webhook.url;
  client = createGrpcClient(WebhookService, { baseUrl, timeoutMs: 5_000 });
  pool = testSchema.pool();
});

afterAll(async () => {
  await webhook?.stop();
  await closeGrpcClients();
  await testSchema.drop();
});

describe('migrations', () => {
  it('created every table, and applying them again changes nothing', async () => {
    const { rows } = await pool.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [schema],
    );
    expect(rows.map((row) => row.table_name)).toEqual([
      'deliveries',
      'delivery_attempts',
      'endpoints',
      'schema_migrations',
      'signing_secrets',
    ]);
    const again = new pg.Pool({ connectionString: testInfra.databaseUrl, max: 1 });
    try {
      expect(await migrate(again, { schema, dir: MIGRATIONS_DIR })).toEqual({ applied: [] });
    } finally {
      await again.end();
    }
  });
});

describe('RotateSigningSecret', () => {
  it('generates a secret, stores it sealed, and a second rotation replaces the first', async () => {
    const first = (await client.rotateSigningSecret({ tenantId })).secret;
    const second = (await client.rotateSigningSecret({ tenantId })).secret;
    expect(first).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.slice('whsec_'.length), 'base64url')).toHaveLength(32);
    expect(second).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);

    const { rows } = await pool.query<{ secret_sealed: Buffer; rotated_at: Date | null }>(
      `SELECT secret_sealed, rotated_at FROM "${schema}".signing_secrets WHERE tenant_id = $1`,
      [tenantId],
    );
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.rotated_at).toBeInstanceOf(Date);
    expect(row.secret_sealed.includes(Buffer.from(second))).toBe(false);
    expect(row.secret_sealed.includes(Buffer.from(first))).toBe(false);
    expect(sealedBox.open(row.secret_sealed, `signing-secret:${tenantId}`).toString()).toBe(second);
  });

  it('uses a given secret (sandbox) and refuses a malformed one', async () => {
    const given = `whsec_sandbox_${randomBytes(8).toString('hex')}`;
    expect((await client.rotateSigningSecret({ tenantId: otherTenantId, secret: given })).secret).toBe(given);
    expect(await refusal(client.rotateSigningSecret({ tenantId: otherTenantId, secret: 'short' }))).toEqual({
      code: Code.InvalidArgument,
      tag: 'ValidationError',
      field: 'secret',
    });
  });

  it('refuses a malformed tenant id', async () => {
    expect(await refusal(client.rotateSigningSecret({ tenantId: 'acme' }))).toEqual({
      code: Code.InvalidArgument,
      tag: 'ValidationError',
      field: 'tenant_id',
    });
  });
});

describe('endpoints', () => {
  let endpointId: string;

  it('creates an endpoint and shows header names, never values', async () => {
    const before = Date.now();
    const { endpoint } = await client.createEndpoint({
      tenantId,
      url: 'https://hooks.example.com/payouts',
      eventTypes: ['transaction.completed'],
      headers: [
        { name: 'Authorization', value: bearer },
        { name: 'X-Partner-Key', value: partnerKey },
      ],
      retryStrategy: RetryStrategy.EXTENDED,
    });
    expect(endpoint).toBeDefined();
    endpointId = endpoint!.id;
    expect(endpointId).toMatch(/^whe_[0-9A-Z]{26}$/);
    expect(endpoint).toMatchObject({
      tenantId,
      url: 'https://hooks.example.com/payouts',
      eventTypes: ['transaction.completed'],
      headerNames: ['Authorization', 'X-Partner-Key'],
      retryStrategy: RetryStrategy.EXTENDED,
      enabled: true,
      disabledReason: '',
    });
    expect(timestampDate(endpoint!.createdAt!).getTime()).toBeGreaterThanOrEqual(before - 5_000);
    const wire = JSON.stringify(endpoint, (_, value) => (typeof value === 'bigint' ? String(value) : value));
    expect(wire).not.toContain(bearer);
    expect(wire).not.toContain(partnerKey);
  });

  it('subscribes to every event type by default', async () => {
    const { endpoint } = await client.createEndpoint({ tenantId, url: 'https://hooks.example.com/all' });
    expect(endpoint).toMatchObject({
      eventTypes: ['*'],
      headerNames: [],
      retryStrategy: RetryStrategy.STANDARD,
    });
  });

  it('keeps header values sealed in the table', async () => {
    const { rows } = await pool.query<{ header_names: string[]; headers_sealed: Buffer; whole: string }>(
      `SELECT header_names, headers_sealed, row_to_json(e)::text AS whole
       FROM "${schema}".endpoints e WHERE id = $1`,
      [endpointId],
    );
    const row = rows[0]!;
    expect(row.header_names).toEqual(['Authorization', 'X-Partner-Key']);
    for (const value of [bearer, partnerKey]) {
      expect(row.whole).not.toContain(value);
      expect(row.headers_sealed.includes(Buffer.from(value))).toBe(false);
    }
    const opened = JSON.parse(
      sealedBox.open(row.headers_sealed, `endpoint-headers:${endpointId}`).toString(),
    );
    expect(opened).toEqual([
      ['Authorization', bearer],
      ['X-Partner-Key', partnerKey],
    ]);
  });

  it('lists the tenant endpoints, oldest first, with header names only', async () => {
    const { endpoints } = await client.listEndpoints({ tenantId });
    expect(endpoints.map((endpoint) => endpoint.url)).toEqual([
      'https://hooks.example.com/payouts',
      'https://hooks.example.com/all',
    ]);
    expect(endpoints[0]!.headerNames).toEqual(['Authorization', 'X-Partner-Key']);
    expect(JSON.stringify(endpoints, (_, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      bearer,
    );
    expect((await client.listEndpoints({ tenantId: otherTenantId })).endpoints).toEqual([]);
  });

  it('answers ListEndpoints to a plain @grpc/grpc-js client (wire format)', async () => {
    const Generic = grpc.makeGenericClientConstructor(
      {
        listEndpoints: {
          path: '/payout.webhook.v1.WebhookService/ListEndpoints',
          requestStream: false,
          responseStream: false,
          requestSerialize: (req: ListEndpointsRequest) =>
            Buffer.from(toBinary(ListEndpointsRequestSchema, req)),
          requestDeserialize: (bytes: Buffer) => fromBinary(ListEndpointsRequestSchema, bytes),
          responseSerialize: (res: ListEndpointsResponse) =>
            Buffer.from(toBinary(ListEndpointsResponseSchema, res)),
          responseDeserialize: (bytes: Buffer) => fromBinary(ListEndpointsResponseSchema, bytes),
        },
      },
      'WebhookService',
    );
    const raw = new Generic(new URL(webhook.url).host, grpc.credentials.createInsecure());
    try {
      const res = await new Promise<ListEndpointsResponse>((resolve, reject) => {
        const call = raw as unknown as {
          listEndpoints(
            req: unknown,
            cb: (err: grpc.ServiceError | null, res: ListEndpointsResponse) => void,
          ): void;
        };
        call.listEndpoints({ $typeName: 'payout.webhook.v1.ListEndpointsRequest', tenantId }, (err, out) =>
          err ? reject(err) : resolve(out),
        );
      });
      expect(res.endpoints.map((endpoint) => endpoint.id)).toContain(endpointId);
    } finally {
      raw.close();
    }
  });

  it.each([
    ['an http URL', { url: 'http://hooks.example.com/x' }, 'url'],
    ['a loopback IPv4 URL', { url: 'https://127.0.0.1/x' }, 'url'],
    ['a loopback IPv6 URL', { url: 'https://[::1]/x' }, 'url'],
    ['the metadata address', { url: 'https://169.254.169.254/latest' }, 'url'],
    ['localhost', { url: 'https://localhost/x' }, 'url'],
    ['an unknown event type', { eventTypes: ['transaction.created'] }, 'event_types'],
    [
      'a reserved header in mixed case',
      { headers: [{ name: 'content-TYPE', value: 'text/plain' }] },
      'headers[0].name',
    ],
    [
      'a header value with CRLF',
      { headers: [{ name: 'X-A', value: 'a\r\nInjected: yes' }] },
      'headers[0].value',
    ],
    [
      '21 headers',
      { headers: Array.from({ length: 21 }, (_, i) => ({ name: `X-H${i}`, value: 'v' })) },
      'headers',
    ],
    ['headers over 8 KiB', { headers: [{ name: 'X-Big', value: 'a'.repeat(8 * 1024) }] }, 'headers'],
  ])('refuses %s with a ValidationError and stores nothing', async (_, change, field) => {
    const request = { tenantId: otherTenantId, url: 'https://hooks.example.com/x', ...change };
    expect(await refusal(client.createEndpoint(request))).toEqual({
      code: Code.InvalidArgument,
      tag: 'ValidationError',
      field,
    });
    expect((await client.listEndpoints({ tenantId: otherTenantId })).endpoints).toEqual([]);
  });

  it('disables and re-enables an endpoint', async () => {
    const disabled = (await client.setEndpointEnabled({ endpointId, enabled: false })).endpoint!;
    expect(disabled).toMatchObject({ id: endpointId, enabled: false, disabledReason: 'operator' });
    const listed = (await client.listEndpoints({ tenantId })).endpoints.find((e) => e.id === endpointId);
    expect(listed?.enabled).toBe(false);

    const enabled = (await client.setEndpointEnabled({ endpointId, enabled: true })).endpoint!;
    expect(enabled).toMatchObject({ id: endpointId, enabled: true, disabledReason: '' });
    const { rows } = await pool.query<{ disabled_reason: string | null; failing_since: Date | null }>(
      `SELECT disabled_reason, failing_since FROM "${schema}".endpoints WHERE id = $1`,
      [endpointId],
    );
    expect(rows[0]).toEqual({ disabled_reason: null, failing_since: null });
  });

  it('answers NOT_FOUND for an unknown endpoint id', async () => {
    const notFound = { code: Code.NotFound, tag: 'NotFoundError', field: 'endpoint_id' };
    expect(
      await refusal(
        client.setEndpointEnabled({ endpointId: 'whe_01JD0000000000000000000000', enabled: false }),
      ),
    ).toEqual(notFound);
    expect(await refusal(client.setEndpointEnabled({ endpointId: 'nonsense', enabled: true }))).toEqual(
      notFound,
    );
    expect(await refusal(client.setEndpointEnabled({ endpointId: '', enabled: true }))).toEqual({
      code: Code.InvalidArgument,
      tag: 'ValidationError',
      field: 'endpoint_id',
    });
  });
});

describe('deliveries schema (for the dispatcher)', () => {
  it('creates one delivery per event and target however often the event is inserted', async () => {
    const endpoint = (await client.createEndpoint({ tenantId, url: 'https://hooks.example.com/dedup' }))
      .endpoint!;
    const eventId = randomUUID();
    const insert = (id: string, endpointId: string | null, url: string) =>
      pool.query(
        `INSERT INTO "${schema}".deliveries
           (id, tenant_id, event_id, event_type, transaction_id, endpoint_id, url, next_attempt_at, payload)
         VALUES ($1, $2, $3, 'transaction.completed', 'txn_1', $4, $5, now(), $6)
         ON CONFLICT DO NOTHING`,
        [id, tenantId, eventId, endpointId, url, Buffer.from('{}')],
      );
    for (let copy = 0; copy < 2; copy++) {
      await insert(`whd_e${copy}`, endpoint.id, endpoint.url);
      await insert(`whd_c${copy}`, null, 'https://shop.example.com/callback');
    }
    const { rows } = await pool.query<{ id: string }>(
      `SELECT id FROM "${schema}".deliveries WHERE event_id = $1 ORDER BY id`,
      [eventId],
    );
    expect(rows.map((row) => row.id)).toEqual(['whd_c0', 'whd_e0']);
  });

  it('refuses a status outside docs/api/webhooks.md "Delivery states"', async () => {
    await expect(
      pool.query(
        `INSERT INTO "${schema}".deliveries
           (id, tenant_id, event_id, event_type, transaction_id, url, status, payload)
         VALUES ('whd_bad', $1, $2, 'transaction.failed', 'txn_2', 'https://x.example', 'sent', '\\x00')`,
        [tenantId, randomUUID()],
      ),
    ).rejects.toThrow(/check constraint/);
  });

  it('lists no deliveries for a tenant without any, and refuses a page size over 100', async () => {
    expect((await client.listDeliveries({ tenantId: otherTenantId })).deliveries).toEqual([]);
    expect(await refusal(client.listDeliveries({ tenantId, page: { limit: 101 } }))).toEqual({
      code: Code.InvalidArgument,
      tag: 'ValidationError',
      field: 'limit',
    });
  });
});
