import http from 'node:http';
import { Code, ConnectError, serviceError } from '@qr-payout/platform/errors';
import { silentLogger } from '@qr-payout/platform/log';
import { testInfra } from '@qr-payout/test-kit/infra';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { buildPublicApp, type PublicAppDeps } from '../src/http/app';
import { checkResponsesAgainstRoutes } from '../src/http/routes/response-check';
import type { IdempotencyCache } from '../src/idempotency/cache';
import { createMemoryIdempotencyCache, type MemoryIdempotencyCache } from '../src/idempotency/memory-cache';
import { createRedisIdempotencyCache } from '../src/idempotency/redis-cache';
import { migrateGateway } from '../src/migrations';
import { createMemoryRateLimiter } from '../src/ratelimit/memory';
import { type HttpResponse, randomSuffix, request, schemaPool, UUID } from './support';

// The idempotency table of docs/api/idempotency.md "The Idempotency-Key" through the real app and
// the real pay records table, once with the Redis cache (production) and once with the memory cache
// (RATE_LIMIT_BACKEND=memory, the sandbox): the same cases, so both behave alike. Payout is a fake
// that keeps the durable record the way payout's idempotency_keys table does (one transaction per
// tenant and key, replayed=true for the same fingerprint, IdempotencyConflict for another), so
// "cache lost" cases show who decides.

const schema = `gw_idem_${randomSuffix()}`;
const prefix = `test:gw-idem:${randomSuffix()}:`;
const TENANTS: Record<string, string> = { key_a: 'ten_idem_a', key_b: 'ten_idem_b' };
const INS = 'ins_01JD0000000000000000000000';
const INS_SLOW = 'ins_01JD0000000000000000000001';
const INS_DOWN_ONCE = 'ins_01JD0000000000000000000002';
const INS_TAX_CHECK = 'ins_01JD0000000000000000000003';
const INS_EXECUTED = 'ins_01JD0000000000000000000004';
const PAYER = { payer_name: 'Ana Souza', payer_account: '0001-123456', payer_tax_id: '52998224725' };

let redis: Redis;
let pool: pg.Pool;
const apps: FastifyInstance[] = [];

interface FakePayout {
  executions: number;
  calls: number;
  instructionsCreated: number;
  downOnce: boolean;
}

/** payout's durable idempotency as its contract states it. */
function fakePayout(state: FakePayout): PublicAppDeps['payout'] {
  const durable = new Map<string, { fingerprint: string; txnId: string; instructionId: string }>();
  const executed = new Set<string>();
  const txn = (id: string, instructionId: string) => {
    const at = { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 0 };
    return {
      id,
      instructionId,
      status: 3,
      rail: 'pix',
      createdAt: at,
      updatedAt: at,
      statusHistory: [
        { status: 1, at },
        { status: 3, at },
      ],
      result: { reference: 'E1', settledAt: at },
      amount: { currency: 'BRL', amountMinor: 1234n },
      creditor: { name: 'Padaria', account: 'x' },
      schemeId: 'BR.PIX',
      country: 'BR',
    };
  };
  return {
    executeInstruction: (async (req: {
      tenantId: string;
      instructionId: string;
      idempotencyKey: string;
      requestFingerprint: string;
      payer: { taxId: string };
    }) => {
      state.calls++;
      if (req.instructionId === INS_SLOW) await new Promise((r) => setTimeout(r, 500));
      if (req.instructionId === INS_DOWN_ONCE && state.downOnce) {
        state.downOnce = false;
        throw new ConnectError('payout restarting', Code.Unavailable);
      }
      if (req.instructionId === INS_TAX_CHECK && req.payer.taxId !== PAYER.payer_tax_id) {
        throw serviceError('ValidationError', 'payer_tax_id is not a valid CPF', {
          code: Code.InvalidArgument,
        });
      }
      if (req.instructionId === INS_EXECUTED) {
        throw serviceError('InstructionAlreadyExecuted', 'already executed', { code: Code.AlreadyExists });
      }
      const key = `${req.tenantId}/${req.idempotencyKey}`;
      const prior = durable.get(key);
      if (prior) {
        if (prior.fingerprint !== req.requestFingerprint) {
          throw serviceError('IdempotencyConflict', 'key used with another request', {
            code: Code.InvalidArgument,
          });
        }
        return { transaction: txn(prior.txnId, prior.instructionId), replayed: true };
      }
      if (executed.has(req.instructionId) && req.instructionId !== INS) {
        throw serviceError('InstructionAlreadyExecuted', 'already executed', { code: Code.AlreadyExists });
      }
      state.executions++;
      executed.add(req.instructionId);
      const txnId = `txn_01JD00000000000000000${String(state.executions).padStart(5, '0')}`;
      durable.set(key, { fingerprint: req.requestFingerprint, txnId, instructionId: req.instructionId });
      return { transaction: txn(txnId, req.instructionId), replayed: false };
    }) as never,
    // payout's Pay as its contract states it: one key resolves and executes once; the durable
    // record answers a retry with the same instruction and transaction.
    pay: (async (req: {
      tenantId: string;
      decoded: { amount?: unknown };
      idempotencyKey: string;
      requestFingerprint: string;
    }) => {
      state.calls++;
      const key = `${req.tenantId}/${req.idempotencyKey}`;
      const prior = durable.get(key);
      const instruction = (id: string) => ({
        id,
        decoded: req.decoded,
        amount: req.decoded.amount,
        payAmount: req.decoded.amount,
      });
      if (prior) {
        if (prior.fingerprint !== req.requestFingerprint) {
          throw serviceError('IdempotencyConflict', 'key used with another request', {
            code: Code.InvalidArgument,
          });
        }
        return {
          instruction: instruction(prior.instructionId),
          transaction: txn(prior.txnId, prior.instructionId),
          replayed: true,
        };
      }
      state.instructionsCreated++;
      state.executions++;
      const instructionId = `ins_01JD00000000000000000${String(state.instructionsCreated).padStart(5, '0')}`;
      const txnId = `txn_01JD00000000000000000${String(state.executions).padStart(5, '0')}`;
      durable.set(key, { fingerprint: req.requestFingerprint, txnId, instructionId });
      return {
        instruction: instruction(instructionId),
        transaction: txn(txnId, instructionId),
        replayed: false,
      };
    }) as never,
    createInstruction: (async (req: { decoded: unknown; amount: unknown }) => {
      state.instructionsCreated++;
      const id = `ins_01JD00000000000000000${String(state.instructionsCreated).padStart(5, '0')}`;
      return { instruction: { id, decoded: req.decoded, amount: req.amount, payAmount: req.amount } };
    }) as never,
    getInstruction: (async (req: { instructionId: string }) => ({
      instruction: {
        id: req.instructionId,
        decoded: {
          schemeId: 'BR.PIX',
          country: 'BR',
          currency: 'BRL',
          creditor: { name: 'Padaria', account: 'x' },
          confidence: 1,
        },
        amount: { currency: 'BRL', amountMinor: 1234n },
        payAmount: { currency: 'BRL', amountMinor: 1234n },
      },
    })) as never,
    getTransaction: (async () => {
      throw new Error('not used');
    }) as never,
    listTransactions: (async () => {
      throw new Error('not used');
    }) as never,
    applyPartnerCallback: (async () => {
      throw new Error('not used');
    }) as never,
  };
}

interface CacheLifetimes {
  lockTtlMs: number;
  ttlMs: number;
}

/** The caches read the key lifetime from payout's settings when they store a response. */
function asOptions({ lockTtlMs, ttlMs }: CacheLifetimes) {
  return { lockTtlMs, ttlMs: async () => ttlMs };
}

/** One implementation of the cache, and how a test loses its records. */
interface CacheBackend {
  name: string;
  create(lifetimes: CacheLifetimes): IdempotencyCache;
  /** Every record gone: Redis flushed, or the gateway process restarted. */
  flush(): Promise<void>;
}

const memoryCaches: MemoryIdempotencyCache[] = [];

const REDIS_BACKEND: CacheBackend = {
  name: 'Redis',
  create: (lifetimes) =>
    createRedisIdempotencyCache({
      redis,
      keyPrefix: prefix,
      ...asOptions(lifetimes),
      logger: silentLogger(),
    }),
  flush: flushRedis,
};

const MEMORY_BACKEND: CacheBackend = {
  // One cache per app, as one per gateway process.
  name: 'memory',
  create: (lifetimes) => {
    const cache = createMemoryIdempotencyCache({
      keyPrefix: prefix,
      ...asOptions(lifetimes),
      logger: silentLogger(),
    });
    memoryCaches.push(cache);
    return cache;
  },
  flush: async () => {
    for (const cache of memoryCaches) cache.clear();
  },
};

const BACKENDS = [REDIS_BACKEND, MEMORY_BACKEND];

/** Whether the cache holds no record of the key: a probe takes the lock only then, and lets it go. */
async function cacheHasNoRecord(cache: IdempotencyCache, scope: { tenantId: string; key: string }) {
  const probe = await cache.begin(scope, 'probe');
  if (probe.kind === 'acquired') await cache.release(probe.lock);
  return probe.kind === 'acquired';
}

async function startApp(backend: CacheBackend, opts: { cache?: IdempotencyCache; ttlMs?: number } = {}) {
  const state: FakePayout = { executions: 0, calls: 0, instructionsCreated: 0, downOnce: true };
  const cache = opts.cache ?? backend.create({ lockTtlMs: 10_000, ttlMs: opts.ttlMs ?? 60_000 });
  const app = buildPublicApp({
    tenants: {
      authenticate: async (raw: string) => {
        const tenantId = TENANTS[raw];
        return tenantId ? { tenantId, keyPrefix: raw, rateLimitPerMinute: 10_000 } : null;
      },
    },
    limiter: createMemoryRateLimiter(),
    schemes: { getJson: async () => ({ schemes: '[]', payerIdentity: '{}' }) },
    decoder: {
      decode: (async () => ({
        decoded: {
          schemeId: 'BR.PIX',
          country: 'BR',
          currency: 'BRL',
          amount: { currency: 'BRL', amountMinor: 1234n },
          creditor: { name: 'Padaria', account: 'x' },
          confidence: 1,
        },
      })) as never,
    },
    currencies: { list: async () => [] },
    payout: fakePayout(state),
    payments: {
      idempotency: cache,
      settings: { get: async () => ({ executeWaitMs: 0, idempotencyKeyTtlMs: 86_400_000 }) },
      executeCallTimeoutMs: 2_000,
      partnerCallbackSecret: undefined,
    },
    // Not called here: these tests post to execute and pay only.
    webhook: {} as PublicAppDeps['webhook'],
    readiness: { notReadyReason: async () => undefined },
    logger: silentLogger(),
    publicDocsUrl: 'http://localhost:8080/docs',
    authFailureLimit: 100,
  });
  checkResponsesAgainstRoutes(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  apps.push(app);
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return { base, state, cache };
}

function post(
  base: string,
  path: string,
  key: string | undefined,
  body: object,
  apiKey = 'key_a',
): Promise<HttpResponse> {
  return request(base, path, {
    method: 'POST',
    headers: {
      'x-api-key': apiKey,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
}

const newKey = () => `idem-${randomSuffix()}`;

/** A POST whose headers go on the wire line by line, repeated names included (fetch would join them). */
function postWithHeaderLines(
  base: string,
  path: string,
  lines: [string, string][],
): Promise<{ status: number; body: { _tag?: string; message?: string } }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ instruction_id: INS, ...PAYER });
    // Raw headers: Node adds none of its own, so Host and Content-Length are written here.
    const raw = [['host', new URL(base).host], ['content-length', String(Buffer.byteLength(body))], ...lines];
    const req = http.request(`${base}${path}`, { method: 'POST', headers: raw.flat() }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function flushRedis(): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

beforeAll(async () => {
  redis = new Redis(testInfra.redisUrl, { commandTimeout: 2_000 });
  pool = schemaPool(schema);
  await migrateGateway(pool, schema);
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await flushRedis();
  redis.disconnect();
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe.each(BACKENDS)('with the $name cache', (backend) => {
  describe('POST /v1/execute idempotency (docs/api/idempotency.md "The Idempotency-Key")', () => {
    it('same key and body: the cached response, marked replayed, with the replay own request_id; no second execution', async () => {
      const { base, state } = await startApp(backend);
      const key = newKey();
      const first = await post(base, '/v1/execute', key, { instruction_id: INS, ...PAYER });
      expect(first.status).toBe(200);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      // Another key order and spacing: the same body.
      const again = await request(base, '/v1/execute', {
        method: 'POST',
        headers: { 'x-api-key': 'key_a', 'content-type': 'application/json', 'idempotency-key': key },
        body: `{ "payer_tax_id": "${PAYER.payer_tax_id}", "payer_account": "${PAYER.payer_account}", "payer_name": "${PAYER.payer_name}", "instruction_id": "${INS}" }`,
      });
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.json().transaction).toEqual(first.json().transaction);
      expect(again.json().request_id).toBe(again.headers.get('x-request-id'));
      expect(again.json().request_id).toMatch(UUID);
      expect(again.json().request_id).not.toBe(first.json().request_id);
      expect(state.calls).toBe(1);
    });

    it('same key, another body: 400 IdempotencyConflict, nothing executed', async () => {
      const { base, state } = await startApp(backend);
      const key = newKey();
      expect((await post(base, '/v1/execute', key, { instruction_id: INS, ...PAYER })).status).toBe(200);
      const other = await post(base, '/v1/execute', key, {
        instruction_id: INS,
        ...PAYER,
        payer_name: 'Bruno',
      });
      expect(other.status).toBe(400);
      expect(other.json()._tag).toBe('IdempotencyConflict');
      expect(state.calls).toBe(1);
    });

    it('same key while the first still runs: 409 IdempotencyInProgress, then the cached response', async () => {
      const { base, state } = await startApp(backend);
      const key = newKey();
      const first = post(base, '/v1/execute', key, { instruction_id: INS_SLOW, ...PAYER });
      await new Promise((r) => setTimeout(r, 150));
      const during = await post(base, '/v1/execute', key, { instruction_id: INS_SLOW, ...PAYER });
      expect(during.status).toBe(409);
      expect(during.json()._tag).toBe('IdempotencyInProgress');
      expect((await first).status).toBe(200);
      const after = await post(base, '/v1/execute', key, { instruction_id: INS_SLOW, ...PAYER });
      expect(after.status).toBe(200);
      expect(after.headers.get('idempotent-replayed')).toBe('true');
      expect(state.calls).toBe(1);
    });

    it('a 5xx is never stored: the retry runs again', async () => {
      const { base, state } = await startApp(backend);
      const key = newKey();
      const down = await post(base, '/v1/execute', key, { instruction_id: INS_DOWN_ONCE, ...PAYER });
      expect(down.status).toBe(503);
      const retry = await post(base, '/v1/execute', key, { instruction_id: INS_DOWN_ONCE, ...PAYER });
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect([state.calls, state.executions]).toEqual([2, 1]);
    });

    it('a refusal before execution is not stored: the corrected body goes through with the same key', async () => {
      const { base } = await startApp(backend);
      const key = newKey();
      const wrong = await post(base, '/v1/execute', key, {
        instruction_id: INS_TAX_CHECK,
        ...PAYER,
        payer_tax_id: '1',
      });
      expect([wrong.status, wrong.json()._tag]).toEqual([400, 'ValidationError']);
      const fixed = await post(base, '/v1/execute', key, { instruction_id: INS_TAX_CHECK, ...PAYER });
      expect(fixed.status).toBe(200);
    });

    it('an outcome refusal (InstructionAlreadyExecuted) is stored and replayed', async () => {
      const { base, state } = await startApp(backend);
      const key = newKey();
      const first = await post(base, '/v1/execute', key, { instruction_id: INS_EXECUTED, ...PAYER });
      expect([first.status, first.json()._tag]).toEqual([409, 'InstructionAlreadyExecuted']);
      const again = await post(base, '/v1/execute', key, { instruction_id: INS_EXECUTED, ...PAYER });
      expect([again.status, again.json()._tag, again.headers.get('idempotent-replayed')]).toEqual([
        409,
        'InstructionAlreadyExecuted',
        'true',
      ]);
      expect(again.json().request_id).toBe(again.headers.get('x-request-id'));
      expect(state.calls).toBe(1);
    });

    it('cache lost between two identical requests: payout durable record decides (replayed, one execution)', async () => {
      const { base, state } = await startApp(backend);
      const key = newKey();
      const first = await post(base, '/v1/execute', key, { instruction_id: INS, ...PAYER });
      await backend.flush();
      const again = await post(base, '/v1/execute', key, { instruction_id: INS, ...PAYER });
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.json().transaction.id).toBe(first.json().transaction.id);
      expect([state.calls, state.executions]).toEqual([2, 1]);
      // And a conflicting body after the loss is still refused, by payout.
      await backend.flush();
      const conflict = await post(base, '/v1/execute', key, {
        instruction_id: INS,
        ...PAYER,
        payer_name: 'Bruno',
      });
      expect([conflict.status, conflict.json()._tag]).toEqual([400, 'IdempotencyConflict']);
    });

    it('keys are per tenant: the same key in two tenants is two executions', async () => {
      const { base, state } = await startApp(backend);
      const key = newKey();
      expect((await post(base, '/v1/execute', key, { instruction_id: INS, ...PAYER }, 'key_a')).status).toBe(
        200,
      );
      const b = await post(
        base,
        '/v1/execute',
        key,
        { instruction_id: INS, ...PAYER, payer_name: 'Other' },
        'key_b',
      );
      expect([b.status, b.headers.get('idempotent-replayed')]).toEqual([200, null]);
      expect(state.executions).toBe(2);
    });

    it('after the key lifetime the key is new', async () => {
      const { base, state, cache } = await startApp(backend, { ttlMs: 1_000 });
      const key = newKey();
      expect((await post(base, '/v1/execute', key, { instruction_id: INS_TAX_CHECK, ...PAYER })).status).toBe(
        200,
      );
      await new Promise((r) => setTimeout(r, 1_100));
      // Another body with the same key: not a conflict any more (the fake payout keeps its record,
      // so it answers IdempotencyConflict: the gateway's cache no longer has a say).
      const later = await post(base, '/v1/execute', key, {
        instruction_id: INS_TAX_CHECK,
        ...PAYER,
        payer_name: 'Bruno',
      });
      expect(state.calls).toBe(2);
      expect(later.json()._tag).toBe('IdempotencyConflict');
      expect(await cacheHasNoRecord(cache, { tenantId: 'ten_idem_a', key })).toBe(true);
    });

    it('missing or malformed Idempotency-Key', async () => {
      const { base, state } = await startApp(backend);
      const missing = await post(base, '/v1/execute', undefined, { instruction_id: INS, ...PAYER });
      expect([missing.status, missing.json()._tag]).toEqual([400, 'IdempotencyKeyMissing']);
      const long = await post(base, '/v1/execute', 'k'.repeat(256), { instruction_id: INS, ...PAYER });
      expect([long.status, long.json()._tag]).toEqual([400, 'ValidationError']);
      // Two header lines, which Node would join into the one key "a, b".
      const twice = await postWithHeaderLines(base, '/v1/execute', [
        ['x-api-key', 'key_a'],
        ['content-type', 'application/json'],
        ['idempotency-key', 'a'],
        ['idempotency-key', 'b'],
      ]);
      expect([twice.status, twice.body._tag, twice.body.message]).toEqual([
        400,
        'ValidationError',
        'Idempotency-Key must be sent once.',
      ]);
      // One line whose value holds a comma is one key, as sent.
      const comma = await post(base, '/v1/execute', `a, b ${newKey()}`, { instruction_id: INS, ...PAYER });
      expect(comma.status).toBe(200);
      expect(state.calls).toBe(1);
    });
  });

  describe('POST /v1/pay idempotency', () => {
    const PAY = { qr_string: '000201...6304ABCD', ...PAYER };

    it("a replay resolves nothing again; with the cache lost payout's Pay replays the same instruction and transaction", async () => {
      const { base, state } = await startApp(backend);
      const key = newKey();
      const first = await post(base, '/v1/pay', key, PAY);
      expect(first.status).toBe(200);
      expect(first.json().instruction.id).toBe(first.json().transaction.instructionId);
      const cached = await post(base, '/v1/pay', key, PAY);
      expect(cached.headers.get('idempotent-replayed')).toBe('true');
      await backend.flush();
      const durable = await post(base, '/v1/pay', key, PAY);
      expect(durable.status).toBe(200);
      expect(durable.headers.get('idempotent-replayed')).toBe('true');
      expect(durable.json().transaction.id).toBe(first.json().transaction.id);
      expect(durable.json().transaction.instructionId).toBe(first.json().instruction.id);
      expect(durable.json().instruction).toEqual(first.json().instruction);
      expect([state.instructionsCreated, state.executions]).toEqual([1, 1]);
      // Another body after the loss: payout's durable key refuses it, nothing resolved again.
      await backend.flush();
      const conflict = await post(base, '/v1/pay', key, { ...PAY, payer_name: 'Bruno' });
      expect([conflict.status, conflict.json()._tag]).toEqual([400, 'IdempotencyConflict']);
      expect(state.instructionsCreated).toBe(1);
    });
  });

  describe('the cache itself', () => {
    it('only the lock holder completes or releases; a completed record replays', async () => {
      const cache = backend.create({ lockTtlMs: 5_000, ttlMs: 60_000 });
      const scope = { tenantId: 'ten_cache', key: newKey() };
      const first = await cache.begin(scope, 'fp1');
      expect(first.kind).toBe('acquired');
      expect((await cache.begin(scope, 'fp1')).kind).toBe('in_progress');
      expect((await cache.begin(scope, 'fp2')).kind).toBe('conflict');
      if (first.kind !== 'acquired') throw new Error('unreachable');
      expect(first.lock.recordKey).toBe(`${prefix}ten_cache:${scope.key}`);
      await cache.complete({ ...first.lock, token: 'someone-else' }, { status: 200, body: { a: 1 } });
      await cache.release({ ...first.lock, token: 'someone-else' });
      expect((await cache.begin(scope, 'fp1')).kind).toBe('in_progress');
      await cache.complete(first.lock, { status: 200, body: { a: 1 } });
      expect(await cache.begin(scope, 'fp1')).toEqual({
        kind: 'replay',
        response: { status: 200, body: { a: 1 } },
      });
      expect((await cache.begin(scope, 'fp2')).kind).toBe('conflict');
    });

    it('a lock whose holder died expires after lockTtlMs', async () => {
      const cache = backend.create({ lockTtlMs: 300, ttlMs: 60_000 });
      const scope = { tenantId: 'ten_cache', key: newKey() };
      expect((await cache.begin(scope, 'fp')).kind).toBe('acquired');
      await new Promise((r) => setTimeout(r, 400));
      expect((await cache.begin(scope, 'fp')).kind).toBe('acquired');
    });

    it('a holder whose lock expired can no longer complete or release: the new holder owns the key', async () => {
      const cache = backend.create({ lockTtlMs: 300, ttlMs: 60_000 });
      const scope = { tenantId: 'ten_cache', key: newKey() };
      const stale = await cache.begin(scope, 'fp');
      await new Promise((r) => setTimeout(r, 400));
      const fresh = await cache.begin(scope, 'fp');
      if (stale.kind !== 'acquired' || fresh.kind !== 'acquired') throw new Error('expected two locks');
      await cache.complete(stale.lock, { status: 200, body: { stale: true } });
      await cache.release(stale.lock);
      expect((await cache.begin(scope, 'fp')).kind).toBe('in_progress');
      await cache.complete(fresh.lock, { status: 200, body: { fresh: true } });
      expect(await cache.begin(scope, 'fp')).toEqual({
        kind: 'replay',
        response: { status: 200, body: { fresh: true } },
      });
    });

    it('completing after the lock expired, with nobody else on the key, stores nothing', async () => {
      const cache = backend.create({ lockTtlMs: 300, ttlMs: 60_000 });
      const scope = { tenantId: 'ten_cache', key: newKey() };
      const stale = await cache.begin(scope, 'fp');
      if (stale.kind !== 'acquired') throw new Error(stale.kind);
      await new Promise((r) => setTimeout(r, 400));
      await cache.complete(stale.lock, { status: 200, body: {} });
      expect(await cacheHasNoRecord(cache, scope)).toBe(true);
    });
  });
});

describe('Redis only', () => {
  const backend = REDIS_BACKEND;

  it('Redis unreachable: requests are served and payout decides', async () => {
    const deadRedis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      // Its socket is destroyed at once on disconnect, not 2 s later (a timer that held Jest open).
      disconnectTimeout: 0,
    });
    const cache = createRedisIdempotencyCache({
      redis: deadRedis,
      keyPrefix: prefix,
      lockTtlMs: 10_000,
      ttlMs: async () => 60_000,
      logger: silentLogger(),
    });
    const { base, state } = await startApp(backend, { cache });
    const key = newKey();
    expect((await post(base, '/v1/execute', key, { instruction_id: INS, ...PAYER })).status).toBe(200);
    const again = await post(base, '/v1/execute', key, { instruction_id: INS, ...PAYER });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(state.executions).toBe(1);
    deadRedis.disconnect();
  });

  it('a completed record lives in Redis until ttlMs after first sight', async () => {
    const cache = backend.create({ lockTtlMs: 5_000, ttlMs: 60_000 });
    const first = await cache.begin({ tenantId: 'ten_cache', key: newKey() }, 'fp');
    if (first.kind !== 'acquired') throw new Error(first.kind);
    await cache.complete(first.lock, { status: 200, body: { a: 1 } });
    const ttl = await redis.pttl(first.lock.recordKey);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

describe('gateway schema', () => {
  it('keeps no pay records: migration 0003 drops the table payout now owns the mapping of', async () => {
    const { rows } = await pool.query<{ name: string | null }>(
      "SELECT to_regclass('pay_idempotency_keys')::text AS name",
    );
    expect(rows[0]?.name).toBeNull();
  });
});
