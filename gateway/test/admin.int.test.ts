import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { create, toJson } from '@bufbuild/protobuf';
import { timestampFromDate, timestampNow } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { serviceError } from '@qr-payout/platform/errors';
import { closeGrpcClients, createGrpcClient, createGrpcServer } from '@qr-payout/platform/grpc';
import { silentLogger } from '@qr-payout/platform/log';
import { ListApiKeysResponseSchema } from '@qr-payout/proto/payout/admin/v1/admin_pb';
import {
  ListStuckTransactionsResponseSchema as PayoutListStuckResponseSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import {
  DeliverySchema,
  DeliveryStatus,
  type Endpoint,
  EndpointSchema,
  RetryStrategy,
  WebhookService,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { createAdminClient } from '@qr-payout/test-kit/admin';
import { testInfra } from '@qr-payout/test-kit/infra';
import type pg from 'pg';
import type { PayoutAdminClient } from '../src/admin/clients';
import { buildAdminServer } from '../src/admin/server';
import { createMemoryRateLimiter } from '../src/ratelimit/memory';
import { createTenantService, type TenantService } from '../src/tenants/service';
import { createTenantStore } from '../src/tenants/store';

type GrpcServer = ReturnType<typeof createGrpcServer>;

// The admin API end to end: a real PostgreSQL schema, a fake WebhookService over real gRPC
// (HTTP/2), the admin server on port 0, a Connect JSON client, and payoutctl as a child process.

const run = promisify(execFile);
const REPO_ROOT = path.join(__dirname, '../..');
const PAYOUTCTL = path.join(REPO_ROOT, 'cli/bin/payoutctl.js');
const ADMIN_TOKEN = `op_${randomBytes(24).toString('hex')}`;
// Failed operator token attempts per address per minute on the throttle test's own admin server.
const FAILED_TOKEN_LIMIT = 3;
const schema = `gw_admin_${randomBytes(6).toString('hex')}`;

let pool: pg.Pool;
let webhookServer: GrpcServer;
let adminServer: http.Server;
let adminUrl: string;
let tenants: TenantService;
const webhookCalls: string[] = [];

function fakeDelivery(id: string, tenantId: string, status = DeliveryStatus.DELIVERED) {
  return create(DeliverySchema, {
    id,
    tenantId,
    eventId: '6f1c2b1e-8d4a-4c1f-9e3b-2a7d5c9e0f11',
    eventType: 'transaction.completed',
    transactionId: 'txn_01JD0000000000000000000001',
    url: 'https://merchant.example/hooks',
    status,
    maxAttempts: 16,
    retryStrategy: RetryStrategy.STANDARD,
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  });
}

/** Minimal WebhookService: endpoints and secrets in memory, enough to prove the forwarding. */
function startFakeWebhookService(): GrpcServer {
  const endpoints = new Map<string, Endpoint>();
  return createGrpcServer({
    serviceName: 'webhook-fake',
    logger: silentLogger(),
    register: (router) =>
      router.service(WebhookService, {
        async createEndpoint(req) {
          webhookCalls.push(`createEndpoint ${req.tenantId}`);
          if (req.headers.some((h) => h.name.toLowerCase() === 'host')) {
            throw serviceError('ValidationError', 'header Host is reserved', {
              code: Code.InvalidArgument,
              field: 'headers',
            });
          }
          const endpoint = create(EndpointSchema, {
            id: `whe_${randomBytes(8).toString('hex')}`,
            tenantId: req.tenantId,
            url: req.url,
            eventTypes: req.eventTypes.length ? req.eventTypes : ['*'],
            headerNames: req.headers.map((h) => h.name),
            retryStrategy: req.retryStrategy || RetryStrategy.STANDARD,
            enabled: true,
            createdAt: timestampNow(),
          });
          endpoints.set(endpoint.id, endpoint);
          return { endpoint };
        },
        async setEndpointEnabled(req) {
          webhookCalls.push(`setEndpointEnabled ${req.endpointId} ${req.enabled}`);
          const endpoint = endpoints.get(req.endpointId);
          if (!endpoint) throw new ConnectError('endpoint not found', Code.NotFound);
          endpoint.enabled = req.enabled;
          endpoint.disabledReason = req.enabled ? '' : 'disabled by operator';
          return { endpoint };
        },
        async listEndpoints(req) {
          webhookCalls.push(`listEndpoints ${req.tenantId}`);
          return { endpoints: [...endpoints.values()].filter((e) => e.tenantId === req.tenantId) };
        },
        async rotateSigningSecret(req) {
          webhookCalls.push(`rotateSigningSecret ${req.tenantId} grace=${req.gracePeriodSeconds ?? 'unset'}`);
          if ((req.gracePeriodSeconds ?? 0) > 604_800) {
            throw serviceError('ValidationError', 'grace_period_seconds must be at most 604800', {
              code: Code.InvalidArgument,
              field: 'grace_period_seconds',
            });
          }
          return {
            secret: req.secret || `whsec_${randomBytes(24).toString('base64url')}`,
            ...(req.gracePeriodSeconds
              ? { previousExpiresAt: timestampFromDate(new Date(Date.now() + req.gracePeriodSeconds * 1000)) }
              : {}),
          };
        },
        async listDeliveries(req) {
          webhookCalls.push(
            `listDeliveries ${req.tenantId} ${req.transactionId} ${req.status} ${req.page?.limit} ${req.page?.cursor}`,
          );
          return { deliveries: [fakeDelivery('whd_listed', req.tenantId)], pageInfo: { nextCursor: 'next' } };
        },
        async getDelivery(req) {
          webhookCalls.push(`getDelivery ${req.deliveryId} tenant=${req.tenantId} all=${req.allTenants}`);
          if (req.deliveryId !== 'whd_known') throw new ConnectError('delivery not found', Code.NotFound);
          return {
            delivery: fakeDelivery(req.deliveryId, 'ten_other'),
            attempts: [{ attemptNumber: 1, trigger: 'scheduled', responseStatus: 200, succeeded: true }],
          };
        },
        async replayDelivery(req) {
          webhookCalls.push(`replayDelivery ${req.deliveryId} tenant=${req.tenantId} all=${req.allTenants}`);
          if (req.deliveryId === 'whd_pending') {
            throw serviceError('DeliveryInFlight', 'delivery is pending', { code: Code.FailedPrecondition });
          }
          if (req.deliveryId === 'whd_recent') {
            throw serviceError('DeliveryReplayTooSoon', 'replay it again in 6 s', {
              code: Code.ResourceExhausted,
              field: 'delivery_id',
              retryAfterSeconds: 6,
            });
          }
          return { delivery: fakeDelivery(req.deliveryId, 'ten_other', DeliveryStatus.PENDING) };
        },
        async pingEndpoint(req) {
          webhookCalls.push(`pingEndpoint ${req.endpointId}`);
          const endpoint = endpoints.get(req.endpointId);
          if (!endpoint) throw new ConnectError('endpoint not found', Code.NotFound);
          return {
            delivery: create(DeliverySchema, {
              ...fakeDelivery('whd_ping', endpoint.tenantId, DeliveryStatus.PENDING),
              eventType: 'webhook.ping',
              transactionId: '',
              endpointId: endpoint.id,
            }),
          };
        },
      }),
  });
}

const adminClient = (token: string | undefined) => createAdminClient(adminUrl, token);

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    return Code[ConnectError.from(err).code];
  }
}

/** Runs payoutctl as the operator would, with the machine's node; never rejects. */
async function payoutctl(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [PAYOUTCTL, ...args], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        PAYOUT_ADMIN_URL: adminUrl,
        PAYOUT_ADMIN_TOKEN: ADMIN_TOKEN,
        ...env,
      },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  pool = createPgPool({ connectionString: testInfra.databaseUrl, schema, max: 4 });
  await migrate(pool, { schema, dir: path.join(__dirname, '../migrations') });
  webhookServer = startFakeWebhookService();
  const webhookPort = await webhookServer.listen(0, '127.0.0.1');
  const webhook = createGrpcClient(WebhookService, { baseUrl: `http://127.0.0.1:${webhookPort}` });
  const logger = silentLogger();
  tenants = createTenantService({ store: createTenantStore(pool), webhook, logger, defaultRateLimit: 100 });
  adminServer = buildAdminServer({
    tenants,
    webhook,
    payout: fakePayout,
    adminToken: ADMIN_TOKEN,
    throttle: { limiter: createMemoryRateLimiter(), failureLimit: 100 },
    logger,
  });
  await new Promise<void>((resolve) => adminServer.listen(0, '127.0.0.1', resolve));
  adminUrl = `http://127.0.0.1:${(adminServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => {
    adminServer.close(resolve);
    adminServer.closeAllConnections();
  });
  await webhookServer.close({ graceMs: 1000 });
  await closeGrpcClients();
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe('admin API', () => {
  it('refuses a missing or wrong operator token with Unauthenticated', async () => {
    expect(await codeOf(adminClient(undefined).listTenants({}))).toBe('Unauthenticated');
    expect(await codeOf(adminClient('wrong-token').listTenants({}))).toBe('Unauthenticated');
    expect(await codeOf(adminClient(`${ADMIN_TOKEN}x`).createTenant({ name: 'nope' }))).toBe(
      'Unauthenticated',
    );
    expect(await codeOf(adminClient(ADMIN_TOKEN).listTenants({}))).toBe('ok');
  });

  it('serves /healthz and plain Connect JSON', async () => {
    const health = await fetch(`${adminUrl}/healthz`);
    expect(health.status).toBe(200);
    const res = await fetch(`${adminUrl}/payout.admin.v1.AdminService/CreateTenant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ name: 'Plain JSON', rateLimitPerMinute: 50 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      tenant: { id: expect.stringMatching(/^ten_/), name: 'Plain JSON', rateLimitPerMinute: 50 },
      apiKey: expect.stringMatching(/^qrp_/),
      signingSecret: expect.stringMatching(/^whsec_/),
    });
    const refused = await fetch(`${adminUrl}/payout.admin.v1.AdminService/ListTenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
  });

  it('refuses a JSON body with an inexact number, a key twice or deep nesting, before the handler', async () => {
    const createTenant = (body: string, token = ADMIN_TOKEN, contentType = 'application/json') =>
      fetch(`${adminUrl}/payout.admin.v1.AdminService/CreateTenant`, {
        method: 'POST',
        headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
        body,
      });
    const name = `Twice ${randomBytes(4).toString('hex')}`;
    const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
    const cases: [string, string][] = [
      // Read as 50 by JSON.parse, so connect's parser alone created a tenant with that limit.
      [
        `{"name":"${name} c","rateLimitPerMinute":50.0000000000000000001}`,
        'rateLimitPerMinute is 50.0000000000000000001 as written, which reads back as 50',
      ],
      [
        `{"name":"${name} a","name":"${name} b"}`,
        'The request body has the key "name" more than once in one object; send each key once.',
      ],
      // The same key written with an escape is the same key.
      [`{"name":"${name} a","\\u006eame":"${name} b"}`, 'The request body has the key "name" more'],
      [`{"name":"${name} d","tags":${deep}}`, 'more than 64 levels deep'],
    ];
    for (const [body, message] of cases) {
      const refused = await createTenant(body);
      // Connect's HTTP status of invalid_argument.
      expect([body, refused.status]).toEqual([body, 400]);
      const answer = (await refused.json()) as { code: string; message: string };
      expect(answer.code).toBe('invalid_argument');
      expect(answer.message).toContain(message);
    }
    // Nothing was created, under either name.
    const listed = await adminClient(ADMIN_TOKEN).listTenants({});
    expect(listed.tenants.filter((t) => t.name.startsWith(name))).toEqual([]);
    // The token is checked first: without it the body is never judged.
    expect((await createTenant(cases[0]![0], 'wrong-token')).status).toBe(401);
    // The same body once per key, as a well-formed operator sends it, is served.
    const served = await createTenant(`{"name":"${name} once"}`);
    expect(served.status).toBe(200);
    // Text that is not JSON stays connect's own refusal.
    const malformed = await createTenant('{"name":');
    expect([malformed.status, ((await malformed.json()) as { code: string }).code]).toEqual([
      400,
      'invalid_argument',
    ]);
    // A compressed body is not read past our parser: compression is refused outright.
    const gzipped = await fetch(`${adminUrl}/payout.admin.v1.AdminService/CreateTenant`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        authorization: `Bearer ${ADMIN_TOKEN}`,
      },
      body: gzipSync(cases[0]![0]),
    });
    expect([gzipped.status, ((await gzipped.json()) as { code: string }).code]).toEqual([
      501,
      'unimplemented',
    ]);
    const after = await adminClient(ADMIN_TOKEN).listTenants({});
    expect(after.tenants.filter((t) => t.name.startsWith(name)).map((t) => t.name)).toEqual([`${name} once`]);
  });

  it('refuses control and bidirectional characters in any text, and unknown fields, before the handler', async () => {
    const call = (method: string, body: string) =>
      fetch(`${adminUrl}/payout.admin.v1.AdminService/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        body,
      });
    const name = `Text ${randomBytes(4).toString('hex')}`;
    const cases: [string, string, string][] = [
      // A NUL reached PostgreSQL, which refuses it in text: a 500.
      ['CreateTenant', `{"name":"${name}\\u0000"}`, 'name holds U+0000 at position 13'],
      ['CreateTenant', `{"name":"${name}\\u001b[31m"}`, 'name holds U+001B'],
      ['CreateTenant', `{"name":"${name}\\u202e"}`, 'name holds U+202E'],
      ['ListApiKeys', '{"tenantId":"ten_\\u0000"}', 'tenantId holds U+0000 at position 4'],
      [
        'CreateWebhookEndpoint',
        '{"endpoint":{"tenantId":"ten_x","url":"https://a.example/\\u0007"}}',
        'endpoint.url holds U+0007',
      ],
    ];
    for (const [method, body, message] of cases) {
      const refused = await call(method, body);
      expect([body, refused.status]).toEqual([body, 400]);
      const answer = (await refused.json()) as { code: string; message: string };
      expect([body, answer.code]).toEqual([body, 'invalid_argument']);
      expect(answer.message).toContain(message);
    }
    // A field the API does not have is refused, not dropped.
    const unknown = await call('CreateTenant', `{"name":"${name} u","rateLimit":5}`);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { code: string }).code).toBe('invalid_argument');
    const listed = await adminClient(ADMIN_TOKEN).listTenants({});
    expect(listed.tenants.filter((t) => t.name.startsWith(name))).toEqual([]);
    // Accented letters and emoji are text.
    expect((await call('CreateTenant', `{"name":"${name} José 😀"}`)).status).toBe(200);
  });

  it("answers what Node's HTTP parser refuses in Connect's error shape", async () => {
    const { hostname, port } = new URL(adminUrl);
    const exchange = (head: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n`));
        let raw = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk) => {
          raw += chunk;
        });
        socket.on('error', () => {}); // the server closes after answering
        socket.on('close', () => resolve(raw));
      });
    for (const [head, message] of [
      [`POST /x HTTP/1.1\r\nHost: a\r\nx-big: ${'a'.repeat(100 * 1024)}`, 'headers are larger'],
      ['POST /x HTTP/1.1\r\nHost: a\r\nauthorization: Bearer \x7f', 'character HTTP does not allow'],
    ] as const) {
      const raw = await exchange(head);
      expect(raw.startsWith('HTTP/1.1 400 ')).toBe(true);
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { code: string; message: string };
      expect(body.code).toBe('invalid_argument');
      expect(body.message).toContain(message);
    }
  });

  it('applies the same rule to each message of gRPC with the JSON codec', async () => {
    const envelope = (json: string) => {
      const message = Buffer.from(json);
      const header = Buffer.alloc(5);
      header.writeUInt32BE(message.length, 1);
      return Buffer.concat([header, message]);
    };
    const name = `Enveloped ${randomBytes(4).toString('hex')}`;
    const call = (json: string) =>
      new Promise<{ status: string | undefined; message: string }>((resolve, reject) => {
        const body = envelope(json);
        const req = httpRequest(
          `${adminUrl}/payout.admin.v1.AdminService/CreateTenant`,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/grpc+json',
              te: 'trailers',
              authorization: `Bearer ${ADMIN_TOKEN}`,
              'content-length': body.length,
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              const status =
                res.trailers['grpc-status'] ?? (res.headers['grpc-status'] as string | undefined);
              const message = res.trailers['grpc-message'] ?? (res.headers['grpc-message'] as string) ?? '';
              resolve({ status, message: decodeURIComponent(message) });
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await call(`{"name":"${name}","rateLimitPerMinute":50.0000000000000000001}`)).toEqual({
      status: String(Code.InvalidArgument),
      message: expect.stringContaining('rateLimitPerMinute is 50.0000000000000000001 as written'),
    });
    expect(await call(`{"name":"${name}"}`)).toEqual({ status: '0', message: '' });
    const listed = await adminClient(ADMIN_TOKEN).listTenants({});
    expect(listed.tenants.filter((t) => t.name === name).map((t) => t.rateLimitPerMinute)).toEqual([0]);
  });

  it('creates, lists, adds and revokes keys in one round trip', async () => {
    const admin = adminClient(ADMIN_TOKEN);
    const created = await admin.createTenant({ name: 'Round trip', rateLimitPerMinute: 300 });
    const tenantId = created.tenant!.id;
    expect(created.apiKey).toMatch(/^qrp_/);
    expect(created.signingSecret).toMatch(/^whsec_/);
    expect(created.tenant!.rateLimitPerMinute).toBe(300);
    expect((await admin.listTenants({})).tenants.map((t) => t.id)).toContain(tenantId);

    const second = await admin.createApiKey({ tenantId });
    expect(second.key!.prefix).toBe(second.apiKey.slice(0, 12));
    const listed = await admin.listApiKeys({ tenantId });
    expect(listed.keys.map((k) => k.prefix).sort()).toEqual(
      [created.apiKey.slice(0, 12), second.key!.prefix].sort(),
    );
    expect(JSON.stringify(toJson(ListApiKeysResponseSchema, listed))).not.toContain(second.apiKey);

    expect((await tenants.authenticate(second.apiKey))?.rateLimitPerMinute).toBe(300);
    const revoked = await admin.revokeApiKey({ keyPrefix: second.key!.prefix });
    expect(revoked.key!.revokedAt).toBeDefined();
    await expect(tenants.authenticate(second.apiKey)).resolves.toBeNull();
    expect((await tenants.authenticate(created.apiKey))?.tenantId).toBe(tenantId);

    const updated = await admin.updateTenant({ tenantId, rateLimitPerMinute: 0 });
    expect(updated.tenant!.rateLimitPerMinute).toBe(0);
  });

  it('answers InvalidArgument for bad input and NotFound for unknown tenants', async () => {
    const admin = adminClient(ADMIN_TOKEN);
    expect(await codeOf(admin.createTenant({ name: '' }))).toBe('InvalidArgument');
    expect(await codeOf(admin.createTenant({ name: 'x', rateLimitPerMinute: -3 }))).toBe('InvalidArgument');
    expect(await codeOf(admin.createApiKey({ tenantId: '' }))).toBe('InvalidArgument');
    expect(await codeOf(admin.createApiKey({ tenantId: 'ten_nobody' }))).toBe('NotFound');
    expect(await codeOf(admin.revokeApiKey({ keyPrefix: 'qrp_nobody00' }))).toBe('NotFound');
    expect(await codeOf(admin.rotateSigningSecret({ tenantId: 'ten_nobody' }))).toBe('NotFound');
    const before = webhookCalls.length;
    expect(
      await codeOf(
        admin.createWebhookEndpoint({ endpoint: { tenantId: 'ten_nobody', url: 'https://e.x/h' } }),
      ),
    ).toBe('NotFound');
    expect(webhookCalls.length).toBe(before);
  });

  it('forwards the webhook RPCs to the webhook service', async () => {
    const admin = adminClient(ADMIN_TOKEN);
    const tenantId = (await admin.createTenant({ name: 'Webhooks' })).tenant!.id;
    const created = await admin.createWebhookEndpoint({
      endpoint: {
        tenantId,
        url: 'https://merchant.example/hooks',
        eventTypes: ['transaction.completed'],
        headers: [{ name: 'Authorization', value: 'Bearer s3cr3t' }],
        retryStrategy: RetryStrategy.EXTENDED,
      },
    });
    expect(created.endpoint).toMatchObject({ tenantId, headerNames: ['Authorization'] });
    const disabled = await admin.setWebhookEndpointEnabled({
      endpointId: created.endpoint!.id,
      enabled: false,
    });
    expect(disabled.endpoint!.enabled).toBe(false);
    const listed = await admin.listWebhookEndpoints({ tenantId });
    expect(listed.endpoints.map((e) => e.id)).toEqual([created.endpoint!.id]);
    const rotated = await admin.rotateSigningSecret({ tenantId });
    expect(rotated.signingSecret).toMatch(/^whsec_/);
    expect(rotated.previousExpiresAt).toBeUndefined();
    const graced = await admin.rotateSigningSecret({ tenantId, gracePeriodSeconds: 3600 });
    expect(graced.previousExpiresAt).toBeDefined();
    expect(webhookCalls).toContain(`rotateSigningSecret ${tenantId} grace=unset`);
    expect(webhookCalls).toContain(`rotateSigningSecret ${tenantId} grace=3600`);
    await expect(admin.rotateSigningSecret({ tenantId, gracePeriodSeconds: 700_000 })).rejects.toMatchObject({
      code: Code.InvalidArgument,
    });
    // The webhook service's own validation error reaches the operator with its code and message.
    const refused = admin.createWebhookEndpoint({
      endpoint: { tenantId, url: 'https://merchant.example/x', headers: [{ name: 'Host', value: 'h' }] },
    });
    await expect(refused).rejects.toMatchObject({
      code: Code.InvalidArgument,
      rawMessage: 'header Host is reserved',
    });
  });
});

describe('admin API: webhook deliveries', () => {
  it("lists a tenant's deliveries after checking the tenant, forwarding filters and page", async () => {
    const admin = adminClient(ADMIN_TOKEN);
    const tenantId = (await admin.createTenant({ name: 'Deliveries' })).tenant!.id;
    const listed = await admin.listWebhookDeliveries({
      tenantId,
      transactionId: 'txn_01JD0000000000000000000001',
      status: DeliveryStatus.FAILED,
      page: { limit: 5, cursor: 'c1' },
    });
    expect(listed.deliveries.map((d) => d.id)).toEqual(['whd_listed']);
    expect(listed.pageInfo?.nextCursor).toBe('next');
    expect(webhookCalls).toContain(
      `listDeliveries ${tenantId} txn_01JD0000000000000000000001 ${DeliveryStatus.FAILED} 5 c1`,
    );
    const before = webhookCalls.length;
    expect(await codeOf(admin.listWebhookDeliveries({ tenantId: 'ten_nobody' }))).toBe('NotFound');
    expect(await codeOf(admin.listWebhookDeliveries({ tenantId: '' }))).toBe('InvalidArgument');
    expect(webhookCalls.length).toBe(before);
  });

  it('reads and replays a delivery of any tenant (all_tenants), and pings an endpoint', async () => {
    const admin = adminClient(ADMIN_TOKEN);
    const shown = await admin.getWebhookDelivery({ deliveryId: 'whd_known' });
    expect(shown.delivery).toMatchObject({ id: 'whd_known', tenantId: 'ten_other' });
    expect(shown.attempts).toHaveLength(1);
    expect(webhookCalls).toContain('getDelivery whd_known tenant= all=true');
    expect(await codeOf(admin.getWebhookDelivery({ deliveryId: 'whd_unknown' }))).toBe('NotFound');
    expect(await codeOf(admin.getWebhookDelivery({ deliveryId: '' }))).toBe('InvalidArgument');

    const replayed = await admin.replayWebhookDelivery({ deliveryId: 'whd_done' });
    expect(replayed.delivery?.status).toBe(DeliveryStatus.PENDING);
    expect(webhookCalls).toContain('replayDelivery whd_done tenant= all=true');
    await expect(admin.replayWebhookDelivery({ deliveryId: 'whd_pending' })).rejects.toMatchObject({
      code: Code.FailedPrecondition,
      rawMessage: 'delivery is pending',
    });

    const tenantId = (await admin.createTenant({ name: 'Ping' })).tenant!.id;
    const endpoint = await admin.createWebhookEndpoint({
      endpoint: { tenantId, url: 'https://merchant.example/ping' },
    });
    const ping = await admin.pingWebhookEndpoint({ endpointId: endpoint.endpoint!.id });
    expect(ping.delivery).toMatchObject({ eventType: 'webhook.ping', endpointId: endpoint.endpoint!.id });
    expect(await codeOf(admin.pingWebhookEndpoint({ endpointId: 'whe_nobody' }))).toBe('NotFound');
    expect(await codeOf(admin.pingWebhookEndpoint({ endpointId: '' }))).toBe('InvalidArgument');
  });
});

// payout's ListStuckTransactions, answering one stuck transaction and recording each request.
const stuckCalls: string[] = [];
const fakePayout: PayoutAdminClient = {
  listStuckTransactions: async (req) => {
    stuckCalls.push(`listStuckTransactions tenant=${req.tenantId ?? ''} limit=${req.limit ?? 0}`);
    return create(PayoutListStuckResponseSchema, {
      transactions: [
        {
          id: 'txn_stuck',
          tenantId: 'ten_any',
          status: TransactionStatus.PROCESSING,
          rail: 'pix',
          createdAt: timestampFromDate(new Date('2026-11-24T12:00:00Z')),
          ageMs: 600_000n,
          horizonMs: 300_000n,
          partnerPayoutId: 'pp_1',
          lastPolledAt: timestampFromDate(new Date('2026-11-24T12:09:00Z')),
        },
      ],
    });
  },
};

describe('admin API: stuck transactions', () => {
  it("forwards to payout's ListStuckTransactions, checking a named tenant exists", async () => {
    const admin = adminClient(ADMIN_TOKEN);
    const all = await admin.listStuckTransactions({ limit: 5 });
    expect(all.transactions).toEqual([
      expect.objectContaining({
        id: 'txn_stuck',
        status: TransactionStatus.PROCESSING,
        rail: 'pix',
        ageMs: 600_000n,
        horizonMs: 300_000n,
      }),
    ]);
    expect(stuckCalls).toContain('listStuckTransactions tenant= limit=5');
    const tenantId = (await admin.createTenant({ name: 'Stuck' })).tenant!.id;
    await admin.listStuckTransactions({ tenantId });
    expect(stuckCalls).toContain(`listStuckTransactions tenant=${tenantId} limit=0`);
    const before = stuckCalls.length;
    expect(await codeOf(admin.listStuckTransactions({ tenantId: 'ten_nobody' }))).toBe('NotFound');
    expect(stuckCalls.length).toBe(before);
  });

  it('payoutctl transactions stuck prints them as JSON; a bad --limit is a usage error', async () => {
    const listed = await payoutctl(['transactions', 'stuck', '--limit', '10']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      transactions: [
        {
          id: 'txn_stuck',
          tenant_id: 'ten_any',
          status: 'processing',
          rail: 'pix',
          created_at: '2026-11-24T12:00:00.000Z',
          age_ms: 600_000,
          horizon_ms: 300_000,
          partner_payout_id: 'pp_1',
          last_polled_at: '2026-11-24T12:09:00.000Z',
          stuck_since: null,
        },
      ],
    });
    const refused = await payoutctl(['transactions', 'stuck', '--limit', 'x']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--limit must be a positive integer (at most 500)');
  });
});

describe('payoutctl against the admin API', () => {
  it('onboards a tenant and manages keys, endpoints and secrets, printing JSON', async () => {
    const created = await payoutctl(['tenant', 'create', '--name', 'CLI tenant', '--rate-limit', '120']);
    expect(created.code).toBe(0);
    const onboarded = JSON.parse(created.stdout);
    expect(Object.keys(onboarded).sort()).toEqual(['api_key', 'signing_secret', 'tenant']);
    const tenant = onboarded.tenant;
    expect(tenant).toEqual({
      id: expect.stringMatching(/^ten_/),
      name: 'CLI tenant',
      rate_limit_per_minute: 120,
      created_at: expect.any(String),
    });
    expect(onboarded.api_key).toMatch(/^qrp_/);
    expect((await tenants.authenticate(onboarded.api_key))?.rateLimitPerMinute).toBe(120);

    const key = JSON.parse((await payoutctl(['key', 'create', '--tenant', tenant.id])).stdout);
    expect(key).toEqual({
      api_key: expect.stringMatching(/^qrp_/),
      key: {
        prefix: key.api_key.slice(0, 12),
        tenant_id: tenant.id,
        created_at: expect.any(String),
        revoked_at: null,
      },
    });
    const revoked = JSON.parse((await payoutctl(['key', 'revoke', '--key-prefix', key.key.prefix])).stdout);
    expect(revoked.key.revoked_at).toEqual(expect.any(String));
    const keys = JSON.parse((await payoutctl(['key', 'list', '--tenant', tenant.id])).stdout);
    expect(keys.keys).toHaveLength(2);

    const endpoint = await payoutctl([
      'endpoint',
      'create',
      '--tenant',
      tenant.id,
      '--url',
      'https://merchant.example/cli',
      '--events',
      'transaction.completed,transaction.failed',
      '--header',
      'Authorization: Bearer abc',
      '--header',
      'X-Merchant-Key: k1',
      '--retry',
      'extended',
    ]);
    expect(endpoint.code).toBe(0);
    const endpoint_id = JSON.parse(endpoint.stdout).endpoint.id;
    expect(endpoint_id).toMatch(/^whe_/);
    const disabled = JSON.parse((await payoutctl(['endpoint', 'disable', endpoint_id])).stdout);
    expect(disabled.endpoint).toMatchObject({ id: endpoint_id, enabled: false });
    const list = JSON.parse((await payoutctl(['endpoint', 'list', '--tenant', tenant.id])).stdout);
    expect(list.endpoints).toEqual([
      expect.objectContaining({
        id: endpoint_id,
        tenant_id: tenant.id,
        event_types: ['transaction.completed', 'transaction.failed'],
        header_names: ['Authorization', 'X-Merchant-Key'],
        retry_strategy: 'extended',
      }),
    ]);
    expect(list.endpoints[0]).not.toHaveProperty('headers');

    const secret = JSON.parse((await payoutctl(['secret', 'rotate', '--tenant', tenant.id])).stdout);
    expect(secret).toEqual({
      signing_secret: expect.stringMatching(/^whsec_/),
      previous_expires_at: null,
    });
    const graced = JSON.parse(
      (await payoutctl(['secret', 'rotate', '--tenant', tenant.id, '--grace', '2h'])).stdout,
    );
    expect(Date.parse(graced.previous_expires_at) - Date.now()).toBeGreaterThan(7_000_000);
    const tooLong = await payoutctl(['secret', 'rotate', '--tenant', tenant.id, '--grace', '8d']);
    expect(tooLong.code).toBe(1);
    expect(JSON.parse(tooLong.stderr).error).toMatchObject({
      code: 'invalid_argument',
      field: 'grace_period_seconds',
    });

    const ping = JSON.parse((await payoutctl(['endpoint', 'ping', endpoint_id])).stdout);
    expect(ping.delivery).toMatchObject({
      event_type: 'webhook.ping',
      endpoint_id,
      transaction_id: null,
      status: 'pending',
    });
    const deliveries = JSON.parse(
      (await payoutctl(['delivery', 'list', '--tenant', tenant.id, '--status', 'failed'])).stdout,
    );
    expect(deliveries).toEqual({
      deliveries: [expect.objectContaining({ id: 'whd_listed' })],
      next_cursor: 'next',
    });
    const shown = JSON.parse((await payoutctl(['delivery', 'show', 'whd_known'])).stdout);
    expect(shown.delivery).toMatchObject({ id: 'whd_known', tenant_id: 'ten_other', status: 'delivered' });
    expect(shown.delivery.attempt_log).toEqual([
      expect.objectContaining({ attempt_number: 1, response_status: 200 }),
    ]);
    const inFlight = await payoutctl(['delivery', 'replay', 'whd_pending']);
    expect(inFlight.code).toBe(1);
    expect(JSON.parse(inFlight.stderr).error.code).toBe('failed_precondition');
    // The webhook service's retry delay reaches the operator through the admin API.
    const tooSoon = await payoutctl(['delivery', 'replay', 'whd_recent']);
    expect(tooSoon.code).toBe(1);
    expect(JSON.parse(tooSoon.stderr)).toEqual({
      error: {
        code: 'resource_exhausted',
        message: 'replay it again in 6 s',
        field: 'delivery_id',
        retry_after_seconds: 6,
      },
    });
    const listedTenants = JSON.parse((await payoutctl(['tenant', 'list'])).stdout);
    expect(listedTenants.tenants).toContainEqual(
      expect.objectContaining({ id: tenant.id, rate_limit_per_minute: 120 }),
    );
  }, 60_000);

  it('exits 1 with a JSON error for a wrong token and 2 for bad usage', async () => {
    const refused = await payoutctl(['tenant', 'list'], { PAYOUT_ADMIN_TOKEN: 'wrong' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(JSON.parse(refused.stderr)).toEqual({
      error: { code: 'unauthenticated', message: 'missing or invalid operator token' },
    });
    const missing = await payoutctl(['key', 'create', '--tenant', 'ten_nobody']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error.code).toBe('not_found');
    const usage = await payoutctl(['endpoint', 'create', '--tenant', 't']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr).error).toEqual({ code: 'usage', message: '--url is required' });
  }, 60_000);

  it('locks out an address past its failed operator tokens, with Retry-After, the right token included', async () => {
    // A server of its own, so its failure budget is this test's alone; a clock the test moves.
    let clock = Date.now();
    const throttled = buildAdminServer({
      tenants,
      webhook: createGrpcClient(WebhookService, { baseUrl: 'http://127.0.0.1:9' }),
      payout: fakePayout,
      adminToken: ADMIN_TOKEN,
      throttle: { limiter: createMemoryRateLimiter({ now: () => clock }), failureLimit: FAILED_TOKEN_LIMIT },
      logger: silentLogger(),
    });
    await new Promise<void>((resolve) => throttled.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(throttled.address() as AddressInfo).port}`;
    const listTenants = (token: string) =>
      fetch(`${url}/payout.admin.v1.AdminService/ListTenants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: '{}',
      });
    const answers: Response[] = [];
    for (let attempt = 0; attempt <= FAILED_TOKEN_LIMIT; attempt++)
      answers.push(await listTenants(`wrong-${attempt}`));
    // Connect's HTTP statuses: Unauthenticated 401, ResourceExhausted 429.
    expect(answers.map((answer) => answer.status)).toEqual([...Array(FAILED_TOKEN_LIMIT).fill(401), 429]);
    const refused = answers[FAILED_TOKEN_LIMIT] as Response;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /too many failed operator token attempts/,
    );
    // Locked out: the right token is refused too, so a guess that hits tells the guesser nothing.
    const locked = await listTenants(ADMIN_TOKEN);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Once the first failure has left the minute, the right token is served again.
    clock += 60_001;
    expect((await listTenants(ADMIN_TOKEN)).status).toBe(200);
    throttled.closeAllConnections();
    await new Promise((resolve) => throttled.close(resolve));
  });
});
