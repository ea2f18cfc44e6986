import { loadFxConfig, type RunningFx, startFx } from '@qr-payout/fx';
import { Code, ConnectError, serviceError } from '@qr-payout/platform/errors';
import { silentLogger } from '@qr-payout/platform/log';
import { testInfra } from '@qr-payout/test-kit/infra';
import { serviceEnv } from '@qr-payout/test-kit/service';
import { signSignatureHeader as signPartnerCallback } from '@qr-payout/webhook-receiver/signature-scheme';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { buildPublicApp } from '../src/http/app';
import { checkResponsesAgainstRoutes } from '../src/http/routes/response-check';
import { createRedisIdempotencyCache } from '../src/idempotency/redis-cache';
import { createMemoryRateLimiter } from '../src/ratelimit/memory';
import { createTenantService } from '../src/tenants/service';
import { createTenantStore } from '../src/tenants/store';
import {
  type HttpResponse,
  randomSuffix,
  request,
  seedTenant,
  startTestGateway,
  type TestGateway,
  UUID,
} from './support';

// Conformance: every route's real responses, success and error, are checked against the OpenAPI
// document the gateway serves: the status must be documented for that operation, the body must
// validate against the documented schema (ajv, JSON Schema 2020-12), and documented headers must
// be present. At the end every documented (operation, status) must have been seen.
//
// Most responses come from the gateway as startGateway builds it (real PostgreSQL, Redis, decoder,
// fx).
// Outcomes the running services cannot produce yet (a resolved instruction with and without an FX
// quote, a decode error, a decoder outage) come from the same app wired to stub clients.

type Operation = {
  responses: Record<
    string,
    {
      $ref?: string;
      headers?: Record<string, { $ref?: string; required?: boolean }>;
      content?: Record<string, { schema: unknown }>;
    }
  >;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

let world: TestGateway;
let fx: RunningFx;
let stubApp: FastifyInstance;
let pool: pg.Pool;
let base: string;
let stubBase: string;
let doc: Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const seen = new Set<string>();

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function resolveRef<T>(value: T & { $ref?: string }): T {
  if (!value.$ref) return value;
  const target = value.$ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (node, part) => (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')],
      doc,
    );
  return target as T;
}

function conform(method: string, path: string, res: HttpResponse): void {
  const operation = doc.paths[path]?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  const status = String(res.status);
  const documented = operation.responses[status];
  if (!documented)
    throw new Error(`${method.toUpperCase()} ${path} answered ${status}, which is not documented`);
  seen.add(`${method} ${path} ${status}`);
  const response = resolveRef(documented);
  for (const [header, definition] of Object.entries(response.headers ?? {})) {
    // Headers documented as `required: false` (Idempotent-Replayed) appear only on some responses.
    if (resolveRef(definition).required === false) continue;
    expect([`${method} ${path} ${status}`, header, res.headers.has(header)]).toEqual([
      `${method} ${path} ${status}`,
      header,
      true,
    ]);
  }
  expect(res.headers.get('x-request-id')).toMatch(UUID);
  if (!response.content) return;
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  expect(Object.keys(response.content)).toContain(mediaType);
  if (mediaType !== 'application/json') return;
  const pointer = `/paths/${escapePointer(path)}/${method}/responses/${status}`;
  const schemaRef = documented.$ref
    ? `${documented.$ref.slice(1)}/content/application~1json/schema`
    : `${pointer}/content/application~1json/schema`;
  const validate =
    ajv.getSchema(`openapi.json#${schemaRef}`) ?? ajv.compile({ $ref: `openapi.json#${schemaRef}` });
  const valid = validate(res.json());
  if (!valid)
    throw new Error(
      `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)} in ${res.text.slice(0, 300)}`,
    );
}

// Transaction ids the stub payout answers: found, down (503), failing (500); any other is 404.
const STUB_TXN = 'txn_01JD0000000000000000000001';
const STUB_TXN_DOWN = 'txn_01JD0000000000000000000002';
const STUB_TXN_BOOM = 'txn_01JD0000000000000000000003';

// Instruction ids the stub ExecuteInstruction answers; any other is 404.
const STUB_INS = 'ins_01JD0000000000000000000000'; // the stub CreateInstruction's too

type StubMoney = { currency: string; amountMinor: bigint };
type StubResolveRequest = {
  tenantId: string;
  decoded: { amount?: StubMoney };
  amount?: StubMoney;
  walletCurrency: string;
  /** The sandbox triggers' stub outcomes are picked by it (POST /v1/sandbox/triggers below). */
  callbackUrl?: string;
};

/** payout's resolve as its contract states it: the QR's amount or an equal one, USD quoted. */
function stubResolve(req: StubResolveRequest) {
  const qrAmount = req.decoded.amount;
  if (req.amount && qrAmount && req.amount.amountMinor !== qrAmount.amountMinor)
    throw serviceError('AmountMismatch', 'another amount', { code: Code.InvalidArgument, field: 'amount' });
  const amount = req.amount ?? qrAmount;
  // Payout passes fx's refusal of a currency fx does not quote (services/fx/src/quotes/errors.ts).
  if (!['', 'BRL', 'USD'].includes(req.walletCurrency))
    throw serviceError(
      'ValidationError',
      `wallet_currency ${req.walletCurrency} is not a currency we quote from`,
      {
        code: Code.InvalidArgument,
        field: 'wallet_currency',
      },
    );
  const quote =
    req.walletCurrency === 'USD'
      ? {
          id: 'quo_01JD0000000000000000000000',
          tenantId: req.tenantId,
          rate: '5.4228',
          source: { currency: 'USD', amountMinor: 228n },
          target: amount,
          fee: { currency: 'USD', amountMinor: 0n },
          expiresAt: { seconds: BigInt(Math.floor(Date.now() / 1000) + 60), nanos: 0 },
        }
      : undefined;
  return {
    id: STUB_INS,
    decoded: req.decoded,
    amount,
    payAmount: quote ? quote.source : amount,
    ...(quote ? { quote } : {}),
  };
}
const STUB_INS_SLOW = 'ins_01JD0000000000000000000001';
const STUB_INS_EXECUTED = 'ins_01JD0000000000000000000002';
const STUB_INS_EXPIRED = 'ins_01JD0000000000000000000003';
const STUB_INS_DOWN = 'ins_01JD0000000000000000000004';
const STUB_INS_BOOM = 'ins_01JD0000000000000000000005';
const PARTNER_SECRET = `partner-secret-${randomSuffix()}`;
const idempotencyPrefix = `test:gw-oas-idem:${randomSuffix()}:`;
let redis: Redis;

function stubTransaction(instructionId: string) {
  const at = { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 123_000_000 };
  return {
    id: STUB_TXN,
    instructionId,
    status: 2, // PROCESSING
    rail: 'pix',
    schemeId: 'BR.PIX',
    country: 'BR',
    // As payout always answers: what the merchant receives, and whom.
    creditor: { name: 'Padaria', account: '+5511999999999' },
    amount: { currency: 'BRL', amountMinor: 1234n },
    createdAt: at,
    updatedAt: at,
    statusHistory: [
      { status: 1, at },
      { status: 2, at },
    ],
  };
}

// Delivery ids the stub webhook answers: delivered, in flight (replay 409), down (503), failing
// (500), replayed moments ago (replay 429); any other is 404. The list answers one page; transaction ids STUB_TXN_DOWN / _BOOM fail it.
const STUB_WHD = 'whd_01JD0000000000000000000001';
const STUB_WHD_PENDING = 'whd_01JD0000000000000000000002';
const STUB_WHD_DOWN = 'whd_01JD0000000000000000000003';
const STUB_WHD_BOOM = 'whd_01JD0000000000000000000004';
const STUB_WHD_RECENT = 'whd_01JD0000000000000000000005';

function stubDelivery(id: string, opts: { ping?: boolean; status?: number } = {}) {
  const at = { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 456_000_000 };
  return {
    id,
    tenantId: 'ten_stub',
    eventId: '6f1c2b1e-8d4a-4c1f-9e3b-2a7d5c9e0f11',
    eventType: opts.ping ? 'webhook.ping' : 'transaction.completed',
    transactionId: opts.ping ? '' : STUB_TXN,
    endpointId: opts.ping ? 'whe_01JD0000000000000000000000' : '',
    url: 'https://hooks.example.com/payouts',
    status: opts.status ?? 3, // DELIVERED
    attempts: 2,
    nextAttemptAt: opts.status === 1 ? at : undefined,
    lastResponseStatus: 200,
    lastError: '',
    createdAt: at,
    updatedAt: at,
    lastAttemptAt: at,
    maxAttempts: 16,
    retryStrategy: 1,
  };
}

function stubDeliveryById(id: string) {
  if (id === STUB_WHD_DOWN) throw new ConnectError('unavailable', Code.Unavailable);
  if (id === STUB_WHD_BOOM) throw new Error('unexpected');
  if (id === STUB_WHD || id === STUB_WHD_RECENT) return stubDelivery(id);
  if (id === STUB_WHD_PENDING) return stubDelivery(id, { status: 1 });
  throw serviceError('NotFoundError', 'delivery not found', { code: Code.NotFound, field: 'delivery_id' });
}

const PAYER = { payer_name: 'Ana Souza', payer_account: '0001-123456', payer_tax_id: '52998224725' };

/**
 * POSTs to a payment route: `key` is the Idempotency-Key (null: none), the tenant's API key unless
 * `opts.apiKey` overrides it (null: none), JSON unless `opts.type` says otherwise.
 */
function paymentPoster(path: string, apiKey: string) {
  return (
    b: string,
    key: string | null,
    body: object | string,
    opts: { apiKey?: string | null; type?: string } = {},
  ) => {
    const apiKeyHeader = opts.apiKey === undefined ? apiKey : opts.apiKey;
    return request(b, path, {
      method: 'POST',
      headers: {
        ...(apiKeyHeader ? { 'x-api-key': apiKeyHeader } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
        'content-type': opts.type ?? 'application/json',
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  };
}

/** Checks each response against the document and records its status, in order. */
function statusRecorder(method: string, path: string) {
  const statuses: number[] = [];
  const check = async (res: HttpResponse) => {
    statuses.push(res.status);
    conform(method, path, res);
    return res;
  };
  return { statuses, check };
}

const json = (apiKey: string | undefined, body: string, contentType = 'application/json') => ({
  method: 'POST',
  headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), 'content-type': contentType },
  body,
});

beforeAll(async () => {
  // ListCurrencies reads only fx's rate table (the default one here): no schema needed.
  fx = await startFx(loadFxConfig(serviceEnv({ LOG_LEVEL: 'error', DATABASE_URL: 'postgres://unused' })));
  world = await startTestGateway({ schemaPrefix: 'gw_oas', env: { FX_URL: fx.url }, logger: silentLogger() });
  ({ base, pool } = world);
  doc = (await request(base, '/v1/openapi.json')).json();
  ajv.addSchema(doc as object, 'openapi.json');

  redis = new Redis(testInfra.redisUrl, { commandTimeout: 2_000 });
  let schemeCalls = 0;
  let endpointCalls = 0;
  let currencyCalls = 0;
  stubApp = buildPublicApp({
    tenants: createTenantService({
      store: createTenantStore(pool),
      webhook: { rotateSigningSecret: async () => ({}) } as never,
      logger: silentLogger(),
      defaultRateLimit: 100,
    }),
    limiter: createMemoryRateLimiter(),
    schemes: {
      // First a decoder outage (503), then an unexpected failure (500).
      getJson: async () => {
        schemeCalls++;
        if (schemeCalls === 1) throw new ConnectError('connect ECONNREFUSED', Code.Unavailable);
        throw new Error('unexpected');
      },
    },
    decoder: {
      decode: (async (req: { qrString: string }) => {
        if (req.qrString === 'bad')
          throw serviceError('QrDecodeError', 'CRC mismatch', { code: Code.InvalidArgument });
        if (req.qrString === 'down') throw new ConnectError('unavailable', Code.Unavailable);
        if (req.qrString === 'psp-down')
          throw serviceError('QrLocationUnavailable', 'The PSP did not answer.', { code: Code.Unavailable });
        if (req.qrString === 'boom') throw new Error('unexpected');
        if (req.qrString === 'slow') await new Promise((r) => setTimeout(r, 400));
        return {
          decoded: {
            schemeId: 'BR.PIX',
            country: 'BR',
            currency: 'BRL',
            amount: { currency: 'BRL', amountMinor: 1234n },
            creditor: { name: 'Padaria', account: '+5511999999999' },
            confidence: 0.97,
          },
        };
      }) as never,
    },
    currencies: {
      // First the list, then an fx outage before the first fetch (503), then an unexpected failure (500).
      list: async () => {
        currencyCalls++;
        if (currencyCalls === 2) throw new ConnectError('unavailable', Code.Unavailable);
        if (currencyCalls === 3) throw new Error('unexpected');
        return [
          { code: 'BRL', minorUnits: 2 },
          { code: 'JPY', minorUnits: 0 },
          { code: 'USD', minorUnits: 2 },
        ];
      },
    },
    payout: {
      getTransaction: (async (req: { transactionId: string }) => {
        if (req.transactionId === STUB_TXN_DOWN) throw new ConnectError('unavailable', Code.Unavailable);
        if (req.transactionId === STUB_TXN_BOOM) throw new Error('unexpected');
        if (req.transactionId !== STUB_TXN)
          throw serviceError('NotFoundError', 'transaction not found', { code: Code.NotFound });
        const at = { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 123_000_000 };
        return {
          transaction: {
            id: STUB_TXN,
            instructionId: 'ins_01JD0000000000000000000000',
            status: 3, // COMPLETED
            rail: 'pix',
            schemeId: 'BR.PIX',
            country: 'BR',
            creditor: { name: 'Padaria', account: '+5511999999999' },
            amount: { currency: 'BRL', amountMinor: 1234n },
            createdAt: at,
            updatedAt: at,
            statusHistory: [
              { status: 1, at },
              { status: 3, at },
            ],
            result: { reference: 'E1234567820261123120000000000001', settledAt: at },
          },
        };
      }) as never,
      listTransactions: (async (req: { createdGte?: unknown; page?: { cursor: string } }) => {
        // A created_gte of 2000-01-01 stands for an outage, of 2000-01-02 for an unexpected failure.
        const gte = (req.createdGte as { seconds?: bigint } | undefined)?.seconds;
        if (gte === 946684800n) throw new ConnectError('unavailable', Code.Unavailable);
        if (gte === 946771200n) throw new Error('unexpected');
        if (req.page?.cursor === 'not-a-cursor')
          throw serviceError('ValidationError', 'cursor is not a next_cursor returned by this API', {
            code: Code.InvalidArgument,
            field: 'cursor',
          });
        const at = { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 123_000_000 };
        return {
          transactions: [
            {
              id: STUB_TXN,
              instructionId: STUB_INS,
              status: 3,
              rail: 'pix',
              schemeId: 'BR.PIX',
              country: 'BR',
              creditor: { name: 'Padaria', account: '+5511999999999' },
              amount: { currency: 'BRL', amountMinor: 1234n },
              payAmount: { currency: 'USD', amountMinor: 228n },
              quote: { id: 'quo_01JD0000000000000000000000', rate: '5.4228' },
              createdAt: at,
              updatedAt: at,
              statusHistory: [
                { status: 1, at },
                { status: 3, at },
              ],
              result: { reference: 'E1234567820261123120000000000001', settledAt: at },
            },
            stubTransaction(STUB_INS),
          ],
          pageInfo: { nextCursor: req.page?.cursor ? '' : 'next-page' },
        };
      }) as never,
      getInstruction: (async (req: { instructionId: string }) => {
        if (req.instructionId === STUB_INS_DOWN) throw new ConnectError('unavailable', Code.Unavailable);
        if (req.instructionId === STUB_INS_BOOM) throw new Error('unexpected');
        if (req.instructionId === 'ins_01JD0000000000000000000009')
          throw serviceError('NotFoundError', 'instruction not found', { code: Code.NotFound });
        return {
          instruction: {
            id: req.instructionId,
            decoded: {
              schemeId: 'BR.PIX',
              country: 'BR',
              currency: 'BRL',
              creditor: { name: 'Padaria', account: '+5511999999999' },
              confidence: 0.97,
            },
            amount: { currency: 'BRL', amountMinor: 1234n },
            payAmount: { currency: 'BRL', amountMinor: 1234n },
          },
        };
      }) as never,
      executeInstruction: (async (req: { instructionId: string }) => {
        switch (req.instructionId) {
          case STUB_INS:
            return { transaction: stubTransaction(req.instructionId), replayed: false };
          case STUB_INS_SLOW:
            await new Promise((r) => setTimeout(r, 400));
            return { transaction: stubTransaction(req.instructionId), replayed: false };
          case STUB_INS_EXECUTED:
            throw serviceError('InstructionAlreadyExecuted', 'already executed', {
              code: Code.AlreadyExists,
              metadata: { instruction_id: STUB_INS_EXECUTED, transaction_id: STUB_TXN },
            });
          case STUB_INS_EXPIRED:
            throw serviceError('QuoteExpired', 'quote expired', { code: Code.FailedPrecondition });
          case STUB_INS_DOWN:
            throw new ConnectError('unavailable', Code.Unavailable);
          case STUB_INS_BOOM:
            throw new Error('unexpected');
          default:
            throw serviceError('NotFoundError', 'instruction not found', { code: Code.NotFound });
        }
      }) as never,
      // payout reads the verified bytes the gateway forwards (docs/partner-protocol.md).
      applyPartnerCallback: (async (req: { payload: Uint8Array }) => {
        const resource = JSON.parse(Buffer.from(req.payload).toString('utf8')) as {
          idempotency_key?: string;
        };
        if (resource.idempotency_key === undefined)
          throw serviceError('ValidationError', 'not a payout resource', {
            code: Code.InvalidArgument,
            field: 'payload',
          });
        if (resource.idempotency_key === STUB_TXN) return { transaction: stubTransaction(STUB_INS) };
        if (resource.idempotency_key === STUB_TXN_DOWN)
          throw new ConnectError('unavailable', Code.Unavailable);
        if (resource.idempotency_key === STUB_TXN_BOOM) throw new Error('unexpected');
        throw serviceError('NotFoundError', 'transaction not found', { code: Code.NotFound });
      }) as never,
      createInstruction: (async (req: StubResolveRequest) => ({ instruction: stubResolve(req) })) as never,
      pay: (async (req: StubResolveRequest) => {
        if (req.callbackUrl === 'https://down.example.com/hook')
          throw new ConnectError('unavailable', Code.Unavailable);
        if (req.callbackUrl === 'https://boom.example.com/hook') throw new Error('unexpected');
        if (req.callbackUrl === 'https://slow.example.com/hook') await new Promise((r) => setTimeout(r, 400));
        const instruction = stubResolve(req);
        return { instruction, transaction: stubTransaction(instruction.id), replayed: false };
      }) as never,
    },
    payments: {
      idempotency: createRedisIdempotencyCache({
        redis,
        keyPrefix: idempotencyPrefix,
        lockTtlMs: 10_000,
        ttlMs: async () => 60_000,
        logger: silentLogger(),
      }),
      settings: { get: async () => ({ executeWaitMs: 0, idempotencyKeyTtlMs: 86_400_000 }) },
      executeCallTimeoutMs: 2_000,
      partnerCallbackSecret: PARTNER_SECRET,
      // The stub app is the sandbox; `base` (startGateway without SANDBOX_MODE) is not.
      sandboxMode: true,
    },
    webhook: {
      // First one endpoint, then an outage (503), then an unexpected failure (500).
      listEndpoints: (async () => {
        endpointCalls++;
        if (endpointCalls === 2) throw new ConnectError('unavailable', Code.Unavailable);
        if (endpointCalls === 3) throw new Error('unexpected');
        return {
          endpoints: [
            {
              id: 'whe_01JD0000000000000000000000',
              url: 'https://hooks.example.com/payouts',
              eventTypes: ['*'],
              headerNames: ['x-partner'],
              retryStrategy: 1,
              enabled: true,
              disabledReason: '',
              createdAt: { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 0 },
            },
          ],
        };
      }) as never,
      listDeliveries: (async (req: { transactionId: string; page?: { cursor: string } }) => {
        if (req.transactionId === STUB_TXN_DOWN) throw new ConnectError('unavailable', Code.Unavailable);
        if (req.transactionId === STUB_TXN_BOOM) throw new Error('unexpected');
        if (req.page?.cursor === 'not-a-cursor')
          throw serviceError('ValidationError', 'cursor is not valid', {
            code: Code.InvalidArgument,
            field: 'cursor',
          });
        return {
          deliveries: [stubDelivery(STUB_WHD, { ping: true }), stubDelivery(STUB_WHD_PENDING, { status: 1 })],
          pageInfo: { nextCursor: req.page?.cursor ? '' : 'next-page' },
        };
      }) as never,
      getDelivery: (async (req: { deliveryId: string }) => ({
        delivery: stubDeliveryById(req.deliveryId),
        attempts: [
          {
            attemptNumber: 1,
            trigger: 'scheduled',
            startedAt: { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 0 },
            durationMs: 5003,
            responseStatus: 0,
            errorClass: 'timeout',
            error: 'no answer within 5 s',
            resolvedAddress: '203.0.113.7',
            responseExcerpt: '',
            succeeded: false,
          },
          {
            attemptNumber: 2,
            trigger: 'scheduled',
            startedAt: { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 0 },
            durationMs: 41,
            responseStatus: 200,
            errorClass: '',
            error: '',
            resolvedAddress: '203.0.113.7',
            responseExcerpt: 'ok',
            succeeded: true,
          },
        ],
        earlierAttempts: 0,
      })) as never,
      replayDelivery: (async (req: { deliveryId: string }) => {
        const delivery = stubDeliveryById(req.deliveryId);
        if (delivery.status === 1)
          throw serviceError('DeliveryInFlight', 'the delivery is pending', {
            code: Code.FailedPrecondition,
          });
        if (req.deliveryId === STUB_WHD_RECENT)
          throw serviceError('DeliveryReplayTooSoon', 'replay it again in 4 s', {
            code: Code.ResourceExhausted,
            retryAfterSeconds: 4,
          });
        return { delivery: { ...delivery, status: 1, attempts: 0, nextAttemptAt: delivery.createdAt } };
      }) as never,
    },
    readiness: { notReadyReason: async () => undefined },
    logger: silentLogger(),
    publicDocsUrl: 'http://localhost:8080/docs',
    authFailureLimit: 100,
  });
  checkResponsesAgainstRoutes(stubApp);
  await stubApp.listen({ port: 0, host: '127.0.0.1' });
  stubBase = `http://127.0.0.1:${(stubApp.server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await stubApp?.close();
  await world?.stop();
  await fx?.stop();
  const keys = (await redis?.keys(`${idempotencyPrefix}*`)) ?? [];
  if (keys.length > 0) await redis.del(...keys);
  redis?.disconnect();
});

describe('OpenAPI document conformance', () => {
  it('is an OpenAPI 3.1 document whose schemas compile', () => {
    expect((doc as unknown as { openapi: string }).openapi).toBe('3.1.0');
    expect(ajv.getSchema('openapi.json')).toBeDefined();
  });

  it('GET /v1/schemes', async () => {
    const { apiKey } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    conform('get', '/v1/schemes', await request(base, '/v1/schemes', { headers: { 'x-api-key': apiKey } }));
    conform('get', '/v1/schemes', await request(base, '/v1/schemes', { headers: { 'x-api-key': apiKey } })); // 429
    conform('get', '/v1/schemes', await request(base, '/v1/schemes')); // 401
    const { apiKey: other } = await seedTenant(pool);
    conform(
      'get',
      '/v1/schemes',
      await request(stubBase, '/v1/schemes', { headers: { 'x-api-key': other } }),
    ); // 503
    conform(
      'get',
      '/v1/schemes',
      await request(stubBase, '/v1/schemes', { headers: { 'x-api-key': other } }),
    ); // 500
  });

  it('POST /v1/resolve', async () => {
    const { apiKey } = await seedTenant(pool);
    const statuses: number[] = [];
    const check = async (b: string, init: Parameters<typeof request>[2]) => {
      const res = await request(b, '/v1/resolve', init);
      statuses.push(res.status);
      conform('post', '/v1/resolve', res);
    };
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'ok' })));
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'ok', amount: 12.34 })));
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'ok', wallet_currency: 'USD' }))); // quote
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'ok', wallet_currency: 'BRL' }))); // null quote
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'ok', wallet_currency: 'XYZ' }))); // unknown
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'ok', amount: 99 }))); // AmountMismatch
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'bad' })));
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'down' })));
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'psp-down' }))); // QrLocationUnavailable
    await check(stubBase, json(apiKey, JSON.stringify({ qr_string: 'boom' })));
    await check(base, json(apiKey, JSON.stringify({ qr_string: '000201' }))); // real decoder: QrDecodeError
    await check(base, json(apiKey, JSON.stringify({ qr_string: '' })));
    await check(base, json(apiKey, '{"qr_string":'));
    await check(base, json(apiKey, '{"__proto__":{"x":1},"qr_string":"a"}'));
    await check(base, json(apiKey, JSON.stringify({ qr_string: 'x'.repeat(70_000) })));
    await check(base, json(apiKey, 'qr_string=x', 'text/plain'));
    await check(base, json(undefined, JSON.stringify({ qr_string: 'x' })));
    await check(base, json('wrong-key-for-conformance', JSON.stringify({ qr_string: 'x' })));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(base, json(limited, JSON.stringify({ qr_string: '' })));
    await check(base, json(limited, JSON.stringify({ qr_string: '' })));
    expect(statuses).toEqual([
      200, 200, 200, 200, 400, 422, 422, 503, 503, 500, 422, 400, 400, 400, 413, 415, 401, 401, 400, 429,
    ]);
  });

  it('POST /v1/execute', async () => {
    const path = '/v1/execute';
    const { apiKey } = await seedTenant(pool);
    const exec = paymentPoster(path, apiKey);
    const { statuses, check } = statusRecorder('post', path);
    const k = () => `oas-exec-${randomSuffix()}`;
    const ok = k();
    await check(await exec(stubBase, ok, { instruction_id: STUB_INS, ...PAYER }));
    const replay = await check(await exec(stubBase, ok, { ...PAYER, instruction_id: STUB_INS }));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await check(await exec(stubBase, ok, { instruction_id: STUB_INS, ...PAYER, payer_name: 'Other' })); // conflict
    const slowKey = k();
    const slow = exec(stubBase, slowKey, { instruction_id: STUB_INS_SLOW, ...PAYER });
    await new Promise((r) => setTimeout(r, 100));
    await check(await exec(stubBase, slowKey, { instruction_id: STUB_INS_SLOW, ...PAYER })); // in progress
    await check(await slow);
    const executed = await check(await exec(stubBase, k(), { instruction_id: STUB_INS_EXECUTED, ...PAYER }));
    // The existing transaction's id, and no other metadata of the service error.
    expect(executed.json()).toMatchObject({ _tag: 'InstructionAlreadyExecuted', transaction_id: STUB_TXN });
    expect(executed.json().instruction_id).toBeUndefined();
    await check(await exec(stubBase, k(), { instruction_id: STUB_INS_EXPIRED, ...PAYER }));
    await check(await exec(stubBase, k(), { instruction_id: 'ins_01JD0000000000000000000009', ...PAYER }));
    await check(await exec(stubBase, k(), { instruction_id: STUB_INS_DOWN, ...PAYER }));
    await check(await exec(stubBase, k(), { instruction_id: STUB_INS_BOOM, ...PAYER }));
    await check(await exec(base, null, { instruction_id: STUB_INS, ...PAYER })); // IdempotencyKeyMissing
    await check(await exec(base, k(), { instruction_id: STUB_INS })); // ValidationError
    await check(await exec(base, k(), JSON.stringify({ instruction_id: 'x'.repeat(70_000) })));
    await check(await exec(base, k(), 'instruction_id=x', { type: 'text/plain' }));
    await check(await exec(base, k(), { instruction_id: STUB_INS, ...PAYER }, { apiKey: null }));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(await exec(base, null, {}, { apiKey: limited }));
    await check(await exec(base, null, {}, { apiKey: limited }));
    expect(statuses).toEqual([
      200, 200, 400, 409, 200, 409, 409, 404, 503, 500, 400, 400, 413, 415, 401, 400, 429,
    ]);
  });

  it('POST /v1/pay', async () => {
    const path = '/v1/pay';
    const { apiKey } = await seedTenant(pool);
    const pay = paymentPoster(path, apiKey);
    const { statuses, check } = statusRecorder('post', path);
    const k = () => `oas-pay-${randomSuffix()}`;
    const ok = k();
    await check(await pay(stubBase, ok, { qr_string: 'ok', ...PAYER }));
    await check(await pay(stubBase, ok, { qr_string: 'ok', ...PAYER })); // replay
    await check(await pay(stubBase, k(), { qr_string: 'ok', wallet_currency: 'USD', ...PAYER }));
    await check(await pay(stubBase, ok, { qr_string: 'ok', ...PAYER, payer_tax_id: '1' })); // conflict
    const slowKey = k();
    const slow = pay(stubBase, slowKey, { qr_string: 'slow', ...PAYER });
    await new Promise((r) => setTimeout(r, 100));
    await check(await pay(stubBase, slowKey, { qr_string: 'slow', ...PAYER })); // in progress
    await check(await slow);
    await check(await pay(stubBase, k(), { qr_string: 'bad', ...PAYER }));
    await check(await pay(stubBase, k(), { qr_string: 'down', ...PAYER }));
    await check(await pay(stubBase, k(), { qr_string: 'boom', ...PAYER }));
    await check(await pay(base, null, { qr_string: 'ok', ...PAYER }));
    await check(await pay(base, k(), { qr_string: 'ok' }));
    await check(await pay(base, k(), JSON.stringify({ qr_string: 'x'.repeat(70_000) })));
    await check(await pay(base, k(), 'qr_string=x', { type: 'text/plain' }));
    await check(await pay(base, k(), { qr_string: 'ok', ...PAYER }, { apiKey: null }));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(await pay(base, null, {}, { apiKey: limited }));
    await check(await pay(base, null, {}, { apiKey: limited }));
    expect(statuses).toEqual([
      200, 200, 200, 400, 409, 200, 422, 503, 500, 400, 400, 413, 415, 401, 400, 429,
    ]);
  });

  it('POST /v1/sandbox/triggers', async () => {
    const path = '/v1/sandbox/triggers';
    const { apiKey } = await seedTenant(pool);
    const trigger = paymentPoster(path, apiKey);
    const { statuses, check } = statusRecorder('post', path);
    const k = () => `oas-trigger-${randomSuffix()}`;
    const failed = { event: 'transaction.failed' };
    const ok = k();
    await check(await trigger(stubBase, ok, failed));
    await check(await trigger(stubBase, ok, failed)); // replay
    await check(await trigger(stubBase, ok, { event: 'transaction.completed' })); // conflict
    const slow = { ...failed, callback_url: 'https://slow.example.com/hook' };
    const slowKey = k();
    const first = trigger(stubBase, slowKey, slow);
    await new Promise((r) => setTimeout(r, 100));
    await check(await trigger(stubBase, slowKey, slow)); // in progress
    await check(await first);
    await check(await trigger(stubBase, k(), { ...failed, callback_url: 'https://down.example.com/hook' }));
    await check(await trigger(stubBase, k(), { ...failed, callback_url: 'https://boom.example.com/hook' }));
    await check(await trigger(stubBase, k(), { event: 'transaction.refunded' }));
    await check(await trigger(stubBase, null, failed));
    await check(await trigger(stubBase, k(), JSON.stringify({ event: 'x'.repeat(70_000) })));
    await check(await trigger(stubBase, k(), 'event=transaction.failed', { type: 'text/plain' }));
    // The gateway as startGateway builds it, without SANDBOX_MODE: every deployment but the sandbox.
    await check(await trigger(base, k(), failed));
    await check(await trigger(base, k(), failed, { apiKey: null }));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(await trigger(base, null, {}, { apiKey: limited }));
    await check(await trigger(base, null, {}, { apiKey: limited }));
    expect(statuses).toEqual([201, 201, 400, 409, 201, 503, 500, 400, 400, 413, 415, 403, 401, 403, 429]);
  });

  it('POST /v1/partner/callbacks/{rail}', async () => {
    const path = '/v1/partner/callbacks/{rail}';
    const resource = (txn: string) =>
      JSON.stringify({
        id: 'pp_0123456789abcdef',
        idempotency_key: txn,
        rail: 'pix',
        amount: { currency: 'BRL', amount_minor: '1234' },
        status: 'ACSC',
        reason_code: null,
        reason: null,
        reference: 'E1234567820261123120000000000001',
        created_at: new Date().toISOString(),
        settled_at: new Date().toISOString(),
      });
    const post = (b: string, rail: string, body: string, opts: { secret?: string; type?: string } = {}) =>
      request(b, `/v1/partner/callbacks/${rail}`, {
        method: 'POST',
        headers: {
          'content-type': opts.type ?? 'application/json',
          'partner-signature': signPartnerCallback(
            opts.secret ?? PARTNER_SECRET,
            body,
            Math.floor(Date.now() / 1000),
          ),
        },
        body,
      });
    const statuses: number[] = [];
    const check = async (res: HttpResponse) => {
      statuses.push(res.status);
      conform('post', path, res);
    };
    await check(await post(stubBase, 'pix', resource(STUB_TXN)));
    await check(await post(stubBase, 'pix', '{"id":"pp_1"}')); // signed, not a payout resource
    await check(await post(stubBase, 'pix', resource(STUB_TXN), { secret: 'wrong' }));
    await check(await post(stubBase, 'swift', resource(STUB_TXN)));
    await check(await post(stubBase, 'pix', resource('txn_01JD0000000000000000000009'))); // unknown transaction
    await check(await post(stubBase, 'pix', `{"pad":"${'x'.repeat(20_000)}"}`));
    await check(await post(stubBase, 'pix', 'status=ACSC', { type: 'text/plain' }));
    await check(await post(stubBase, 'pix', resource(STUB_TXN_BOOM)));
    await check(await post(stubBase, 'pix', resource(STUB_TXN_DOWN)));
    await check(await post(base, 'pix', resource(STUB_TXN))); // no PARTNER_CALLBACK_SECRET: 503
    expect(statuses).toEqual([200, 400, 401, 404, 404, 413, 415, 500, 503, 503]);
  });

  it('GET /v1/transactions/{id}', async () => {
    const path = '/v1/transactions/{id}';
    const { apiKey } = await seedTenant(pool);
    const get = (b: string, id: string, key: string | null = apiKey) =>
      request(b, `/v1/transactions/${id}`, { headers: key ? { 'x-api-key': key } : {} });
    const statuses: number[] = [];
    const check = async (res: HttpResponse) => {
      statuses.push(res.status);
      conform('get', path, res);
    };
    await check(await get(stubBase, STUB_TXN));
    await check(await get(stubBase, 'txn_01JD0000000000000000000009')); // unknown: 404
    await check(await get(base, 'not-a-transaction-id')); // malformed: 404 without a call
    await check(await get(stubBase, STUB_TXN_DOWN));
    await check(await get(stubBase, STUB_TXN_BOOM));
    await check(await get(base, STUB_TXN, null));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(await get(base, 'txn_x', limited));
    await check(await get(base, 'txn_x', limited));
    expect(statuses).toEqual([200, 404, 404, 503, 500, 401, 404, 429]);
  });

  it('GET /v1/transactions', async () => {
    const path = '/v1/transactions';
    const { apiKey } = await seedTenant(pool);
    const list = (b: string, query: string, key: string | null = apiKey) =>
      request(b, `${path}${query}`, { headers: key ? { 'x-api-key': key } : {} });
    const { statuses, check } = statusRecorder('get', path);
    const first = await check(
      await list(stubBase, '?status=completed&limit=2&created_lt=2030-01-01T00:00:00Z'),
    );
    expect(first.json().next_cursor).toBe('next-page');
    expect(first.json().transactions[0]).toMatchObject({
      amount: 12.34,
      currency: 'BRL',
      creditor: { name: 'Padaria', account: '+5511999999999' },
      scheme: 'BR.PIX',
      country: 'BR',
      walletAmount: 2.28,
      walletCurrency: 'USD',
      quote: { id: 'quo_01JD0000000000000000000000', rate: '5.4228' },
    });
    expect(first.json().transactions[1]).toMatchObject({
      walletAmount: null,
      walletCurrency: null,
      quote: null,
    });
    const last = await check(await list(stubBase, '?cursor=next-page'));
    expect(last.json().next_cursor).toBeNull();
    await check(await list(stubBase, '?status=lost')); // gateway: not a state
    await check(await list(stubBase, '?limit=ten'));
    await check(await list(stubBase, '?created_gte=yesterday'));
    await check(await list(stubBase, '?page=2')); // unknown parameter
    await check(await list(stubBase, '?cursor=not-a-cursor')); // payout's ValidationError
    await check(await list(stubBase, '?created_gte=2000-01-01T00:00:00Z'));
    await check(await list(stubBase, '?created_gte=2000-01-02T00:00:00Z'));
    await check(await list(base, '', null));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(await list(stubBase, '', limited));
    await check(await list(stubBase, '', limited));
    expect(statuses).toEqual([200, 200, 400, 400, 400, 400, 400, 503, 500, 401, 200, 429]);
  });

  it('GET /v1/instructions/{id}', async () => {
    const path = '/v1/instructions/{id}';
    const { apiKey } = await seedTenant(pool);
    const get = (b: string, id: string, key: string | null = apiKey) =>
      request(b, `/v1/instructions/${id}`, { headers: key ? { 'x-api-key': key } : {} });
    const { statuses, check } = statusRecorder('get', path);
    const found = await check(await get(stubBase, STUB_INS));
    expect(found.json().instruction).toMatchObject({ id: STUB_INS, amount: 12.34, currency: 'BRL' });
    await check(await get(stubBase, 'ins_01JD0000000000000000000009')); // unknown: 404
    await check(await get(base, 'not-an-instruction-id')); // malformed: 404 without a call
    await check(await get(stubBase, STUB_INS_DOWN));
    await check(await get(stubBase, STUB_INS_BOOM));
    await check(await get(base, STUB_INS, null));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(await get(base, 'ins_x', limited));
    await check(await get(base, 'ins_x', limited));
    expect(statuses).toEqual([200, 404, 404, 503, 500, 401, 404, 429]);
  });

  /**
   * A GET without parameters whose stub client answers, then fails (503), then breaks (500): those
   * three from the stub app, 401 from the real one, then 200 and 429 under a limit of one a minute.
   * Returns the first (200) answer.
   */
  async function checkPlainGet(path: string): Promise<HttpResponse> {
    const { apiKey } = await seedTenant(pool);
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    const responses: HttpResponse[] = [];
    for (const [b, key] of [
      [stubBase, apiKey],
      [stubBase, apiKey],
      [stubBase, apiKey],
      [base, null],
      [stubBase, limited],
      [stubBase, limited],
    ] as const) {
      const res = await request(b, path, { headers: key ? { 'x-api-key': key } : {} });
      conform('get', path, res);
      responses.push(res);
    }
    expect(responses.map((r) => r.status)).toEqual([200, 503, 500, 401, 200, 429]);
    return responses[0]!;
  }

  it('GET /v1/webhook-endpoints', async () => {
    await checkPlainGet('/v1/webhook-endpoints');
  });

  it('GET /v1/fx/currencies', async () => {
    const listed = await checkPlainGet('/v1/fx/currencies');
    expect(listed.json().currencies).toEqual([
      { code: 'BRL', minor_units: 2 },
      { code: 'JPY', minor_units: 0 },
      { code: 'USD', minor_units: 2 },
    ]);
    // The real fx behind the real gateway: its default rate table (services/fx/README.md).
    const { apiKey } = await seedTenant(pool);
    const real = await request(base, '/v1/fx/currencies', { headers: { 'x-api-key': apiKey } });
    conform('get', '/v1/fx/currencies', real);
    expect(real.status).toBe(200);
    expect(real.json().currencies.map((c: { code: string }) => c.code)).toEqual([
      'ARS',
      'BOB',
      'BRL',
      'COP',
      'EUR',
      'PEN',
      'USD',
    ]);
  });

  it('GET /v1/webhook-deliveries', async () => {
    const path = '/v1/webhook-deliveries';
    const { apiKey } = await seedTenant(pool);
    const list = (b: string, query: string, key: string | null = apiKey) =>
      request(b, `${path}${query}`, { headers: key ? { 'x-api-key': key } : {} });
    const { statuses, check } = statusRecorder('get', path);
    const first = await check(await list(stubBase, '?status=pending&limit=2'));
    expect(first.json().next_cursor).toBe('next-page');
    expect(first.json().deliveries[0]).toMatchObject({
      transaction_id: null,
      endpoint_id: expect.any(String),
    });
    const last = await check(await list(stubBase, '?cursor=next-page'));
    expect(last.json().next_cursor).toBeNull();
    await check(await list(stubBase, '?status=lost')); // gateway: not a state
    await check(await list(stubBase, '?limit=ten'));
    await check(await list(stubBase, '?transaction_id=txn_123'));
    await check(await list(stubBase, '?page=2')); // unknown parameter
    await check(await list(stubBase, '?cursor=not-a-cursor')); // the service's ValidationError
    await check(await list(stubBase, `?transaction_id=${STUB_TXN_DOWN}`));
    await check(await list(stubBase, `?transaction_id=${STUB_TXN_BOOM}`));
    await check(await list(base, '', null));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(await list(stubBase, '?status=lost', limited));
    await check(await list(stubBase, '', limited));
    expect(statuses).toEqual([200, 200, 400, 400, 400, 400, 400, 503, 500, 401, 400, 429]);
  });

  it('GET /v1/webhook-deliveries/{id}', async () => {
    const path = '/v1/webhook-deliveries/{id}';
    const { apiKey } = await seedTenant(pool);
    const get = (b: string, id: string, key: string | null = apiKey) =>
      request(b, `/v1/webhook-deliveries/${id}`, { headers: key ? { 'x-api-key': key } : {} });
    const { statuses, check } = statusRecorder('get', path);
    const found = await check(await get(stubBase, STUB_WHD));
    expect(found.json().delivery.attempt_log).toHaveLength(2);
    await check(await get(stubBase, 'whd_01JD0000000000000000000009')); // unknown
    await check(await get(base, 'not-a-delivery-id')); // malformed: 404 without a call
    await check(await get(stubBase, STUB_WHD_DOWN));
    await check(await get(stubBase, STUB_WHD_BOOM));
    await check(await get(base, STUB_WHD, null));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(await get(base, 'whd_x', limited));
    await check(await get(base, 'whd_x', limited));
    expect(statuses).toEqual([200, 404, 404, 503, 500, 401, 404, 429]);
  });

  it('POST /v1/webhook-deliveries/{id}/replay', async () => {
    const path = '/v1/webhook-deliveries/{id}/replay';
    const { apiKey } = await seedTenant(pool);
    const replay = (
      b: string,
      id: string,
      opts: { key?: string | null; body?: string; type?: string } = {},
    ) => {
      const key = opts.key === undefined ? apiKey : opts.key;
      return request(b, `/v1/webhook-deliveries/${id}/replay`, {
        method: 'POST',
        headers: {
          ...(key ? { 'x-api-key': key } : {}),
          ...(opts.body !== undefined ? { 'content-type': opts.type ?? 'application/json' } : {}),
        },
        ...(opts.body !== undefined ? { body: opts.body } : {}),
      });
    };
    const { statuses, check } = statusRecorder('post', path);
    const replayed = await check(await replay(stubBase, STUB_WHD)); // no body
    expect(replayed.json().delivery).toMatchObject({ status: 'pending', attempts: 0 });
    await check(await replay(stubBase, STUB_WHD, { body: '{}' }));
    await check(await replay(stubBase, STUB_WHD, { body: '' })); // empty JSON body
    await check(await replay(stubBase, STUB_WHD, { body: '{"force":true}' }));
    await check(await replay(stubBase, STUB_WHD, { body: '[]' }));
    await check(await replay(stubBase, 'whd_01JD0000000000000000000009'));
    await check(await replay(base, 'whd_nope'));
    await check(await replay(stubBase, STUB_WHD_PENDING));
    await check(await replay(stubBase, STUB_WHD, { body: JSON.stringify({ pad: 'x'.repeat(70_000) }) }));
    await check(await replay(stubBase, STUB_WHD, { body: 'replay', type: 'text/plain' }));
    await check(await replay(stubBase, STUB_WHD_DOWN));
    await check(await replay(stubBase, STUB_WHD_BOOM));
    await check(await replay(base, STUB_WHD, { key: null }));
    const { apiKey: limited } = await seedTenant(pool, { rateLimitPerMinute: 1 });
    await check(await replay(base, 'whd_x', { key: limited }));
    await check(await replay(base, 'whd_x', { key: limited }));
    const tooSoon = await check(await replay(stubBase, STUB_WHD_RECENT));
    expect(tooSoon.json()).toMatchObject({ _tag: 'DeliveryReplayTooSoon', retryAfter: 4 });
    expect(tooSoon.headers.get('retry-after')).toBe('4');
    expect(statuses).toEqual([
      200, 200, 200, 400, 400, 404, 404, 409, 413, 415, 503, 500, 401, 404, 429, 429,
    ]);
  });

  it('documents the events it sends as OpenAPI 3.1 webhooks, whose schemas accept real envelopes', () => {
    type WebhookOp = { post: { parameters: { name: string; schema: { pattern?: string } }[] } };
    const webhooks = (doc as unknown as { webhooks: Record<string, WebhookOp> }).webhooks;
    expect(Object.keys(webhooks)).toEqual(['transaction.completed', 'transaction.failed', 'webhook.ping']);
    const headers = webhooks['transaction.completed']!.post.parameters;
    expect(headers.map((p) => p.name)).toEqual(['Service-Signature', 'x-event-id', 'x-event-type']);
    const signature = new RegExp(headers[0]!.schema.pattern!);
    expect(signature.test(`t=1764000000,v1=${'a'.repeat(64)},v1=${'b'.repeat(64)}`)).toBe(true);
    expect(signature.test('t=1764000000')).toBe(false);

    const valid = (name: string, body: object) => {
      const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`)!;
      return validate(body) ? 'valid' : ajv.errorsText(validate.errors);
    };
    const envelope = (eventType: string, data: object) => ({
      schema_version: '1',
      event_id: '6f1c2b1e-8d4a-4c1f-9e3b-2a7d5c9e0f11',
      event_type: eventType,
      occurred_at: '2026-11-24T12:00:00.123Z',
      data,
    });
    const transaction = { transaction_id: STUB_TXN, instruction_id: STUB_INS };
    const completed = envelope('transaction.completed', {
      ...transaction,
      status: 'completed',
      result: { reference: 'E1234567820261123120000000000001', settledAt: '2026-11-24T12:00:00.100Z' },
      error: null,
    });
    const failed = envelope('transaction.failed', {
      ...transaction,
      status: 'failed',
      result: null,
      error: { reason: 'Invalid creditor account', code: 'AC03', partnerStatus: 'RJCT' },
    });
    const ping = envelope('webhook.ping', { endpoint_id: 'whe_01JD0000000000000000000000', message: 'test' });
    expect(valid('WebhookTransactionCompletedEvent', completed)).toBe('valid');
    expect(valid('WebhookTransactionFailedEvent', failed)).toBe('valid');
    expect(valid('WebhookPingEvent', ping)).toBe('valid');
    expect(valid('WebhookTransactionCompletedEvent', failed)).not.toBe('valid');
    expect(valid('WebhookPingEvent', { ...ping, schema_version: '2' })).not.toBe('valid');
  });

  it('public documentation and probes', async () => {
    conform('get', '/v1/openapi.json', await request(base, '/v1/openapi.json'));
    conform('get', '/docs', await request(base, '/docs'));
    conform('get', '/docs/errors', await request(base, '/docs/errors'));
    conform('get', '/docs/samples', await request(base, '/docs/samples'));
    conform('get', '/docs/api', await request(base, '/docs/api'));
    conform('get', '/docs/api/{page}', await request(base, '/docs/api/idempotency'));
    conform('get', '/docs/api/{page}', await request(base, '/docs/api/nothing'));
    conform('get', '/v1/sandbox/test-qrs', await request(base, '/v1/sandbox/test-qrs'));
    conform('get', '/docs/assets/{name}', await request(base, '/docs/assets/swagger-ui.css'));
    conform('get', '/docs/assets/{name}', await request(base, '/docs/assets/nothing.js'));
    conform('get', '/dashboard', await request(base, '/dashboard'));
    conform('get', '/dashboard/assets/{name}', await request(base, '/dashboard/assets/tenant.js'));
    conform('get', '/dashboard/assets/{name}', await request(base, '/dashboard/assets/operator.js'));
    conform('get', '/healthz', await request(base, '/healthz'));
    conform('get', '/readyz', await request(base, '/readyz'));
  });

  it('every documented status was produced (after shutdown starts, /readyz is 503)', async () => {
    world.gateway.beginShutdown();
    conform('get', '/readyz', await request(base, '/readyz'));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        Object.keys(op.responses).map((status) => `${method} ${path} ${status}`),
      ),
    );
    expect(documented.filter((d) => !seen.has(d))).toEqual([]);
  });
});
