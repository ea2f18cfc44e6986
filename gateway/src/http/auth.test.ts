import { setTimeout as delay } from 'node:timers/promises';
import { silentLogger } from '@qr-payout/platform/log';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import pino from 'pino';
import { ApiError } from '../errors/api-error';
import type { RateLimiter } from '../ratelimit/limiter';
import { createMemoryRateLimiter } from '../ratelimit/memory';
import { hashApiKeyHex } from '../tenants/keys';
import { createTenantService, type SigningSecretClient } from '../tenants/service';
import { createTenantStore } from '../tenants/store';
import {
  AUTH_FAILURES_MESSAGE,
  createAuthHook,
  createSerialLanes,
  INVALID_KEY_MESSAGE,
  MAX_API_KEY_LENGTH,
  MISSING_KEY_MESSAGE,
  readApiKeyHeader,
  stillRefused,
  tenantIdOf,
} from './auth';
import { toApiError } from './error-reply';

describe('tenantIdOf', () => {
  const key = { tenantId: 'ten_a', keyPrefix: 'qrp_a', rateLimitPerMinute: 100 };

  it('reads the tenant the auth hook set', () => {
    expect(tenantIdOf({ auth: key, method: 'GET', url: '/v1/transactions' })).toBe('ten_a');
  });

  it('fails a request the auth hook never saw as a logged 500 InternalError, never as tenant ""', () => {
    const request = { id: 'req-1', auth: null, method: 'GET', url: '/v1/transactions?limit=5' };
    let thrown: unknown;
    try {
      tenantIdOf(request);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe(
      "GET /v1/transactions?limit=5 reached a tenant's handler without the auth hook",
    );
    const logged: unknown[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const api = toApiError(thrown, request as unknown as FastifyRequest, logger);
    expect(api).toMatchObject({
      tag: 'InternalError',
      status: 500,
      message: 'An unexpected error occurred.',
    });
    expect(logged).toEqual([expect.objectContaining({ msg: 'unexpected error', request_id: 'req-1' })]);
  });
});

describe('readApiKeyHeader', () => {
  it('treats an absent, empty or blank header as missing', () => {
    expect(readApiKeyHeader(undefined)).toEqual({ kind: 'missing' });
    expect(readApiKeyHeader('')).toEqual({ kind: 'missing' });
    expect(readApiKeyHeader('  ')).toEqual({ kind: 'missing' });
    expect(readApiKeyHeader([])).toEqual({ kind: 'missing' });
  });

  it('refuses an oversized key or a repeated header without looking it up', () => {
    expect(readApiKeyHeader('k'.repeat(MAX_API_KEY_LENGTH + 1))).toEqual({ kind: 'invalid' });
    expect(readApiKeyHeader(['a', 'b'])).toEqual({ kind: 'invalid' });
  });

  it('passes a key of up to 256 characters on as it is', () => {
    const key = 'k'.repeat(MAX_API_KEY_LENGTH);
    expect(readApiKeyHeader(key)).toEqual({ kind: 'present', key });
    expect(readApiKeyHeader('qrp_AbCdEfGh_x')).toEqual({ kind: 'present', key: 'qrp_AbCdEfGh_x' });
  });
});

// The hook with the real tenant service (its known and unknown key caches) over a fake pool that
// counts lookups, and the memory limiter, both on one fake clock.
const ADDRESS = '203.0.113.7';
const OTHER_ADDRESS = '198.51.100.9';
const KEY_A = 'qrp_TenantAa_0123456789abcdefghijklmnopqrstuv';
const KEY_B = 'qrp_TenantBb_0123456789abcdefghijklmnopqrstuv';
const FAILURE_LIMIT = 3;

interface Harness {
  hook: ReturnType<typeof createAuthHook>;
  clock: { now: number };
  /** Database lookups, and the most that ran at once per group of keys (the key's first 9 chars). */
  lookups: { count: number; inFlight: Map<string, number>; maxInFlight: Map<string, number> };
  /** Limiter buckets consumed, in order. */
  consumed: string[];
  groups: Map<string, string>;
}

function harness(opts: { lookupMs?: number } = {}): Harness {
  const clock = { now: 1_700_000_000_000 };
  const lookups = { count: 0, inFlight: new Map<string, number>(), maxInFlight: new Map<string, number>() };
  const groups = new Map<string, string>();
  const owners = new Map([
    [hashApiKeyHex(KEY_A), { prefix: 'qrp_TenantAa', tenant_id: 'ten_a', rate_limit_per_minute: null }],
    [hashApiKeyHex(KEY_B), { prefix: 'qrp_TenantBb', tenant_id: 'ten_b', rate_limit_per_minute: 7 }],
  ]);
  const pool = {
    async query(_sql: string, [hash]: [Buffer]) {
      lookups.count++;
      const group = groups.get(hash.toString('hex')) ?? 'other';
      const inFlight = (lookups.inFlight.get(group) ?? 0) + 1;
      lookups.inFlight.set(group, inFlight);
      lookups.maxInFlight.set(group, Math.max(lookups.maxInFlight.get(group) ?? 0, inFlight));
      await delay(opts.lookupMs ?? 0);
      lookups.inFlight.set(group, (lookups.inFlight.get(group) ?? 1) - 1);
      const owner = owners.get(hash.toString('hex'));
      return { rows: owner ? [{ ...owner, revoked_at: null }] : [] };
    },
  };
  const tenants = createTenantService({
    store: createTenantStore(pool as unknown as Pool),
    webhook: {} as SigningSecretClient,
    logger: silentLogger(),
    defaultRateLimit: 100,
  });
  const memory = createMemoryRateLimiter({ now: () => clock.now });
  const consumed: string[] = [];
  const limiter: RateLimiter = {
    consume(key, limit, windowMs) {
      consumed.push(key);
      return memory.consume(key, limit, windowMs);
    },
    peek: (key, limit, windowMs) => memory.peek(key, limit, windowMs),
  };
  const hook = createAuthHook({ tenants, limiter, authFailureLimit: FAILURE_LIMIT, now: () => clock.now });
  return { hook, clock, lookups, consumed, groups };
}

type Outcome =
  | { status: 200; tenantId: string; headers: Record<string, string> }
  | { status: number; tag: string; message: string; retryAfter?: number; headers: Record<string, string> };

async function call(
  h: Harness,
  key: string | undefined,
  opts: { ip?: string; gone?: boolean } = {},
): Promise<Outcome> {
  const request = {
    headers: key === undefined ? {} : { 'x-api-key': key },
    ip: opts.ip ?? ADDRESS,
    raw: { socket: { destroyed: opts.gone ?? false } },
    auth: null,
  } as unknown as FastifyRequest;
  h.groups.set(hashApiKeyHex(key ?? ''), (key ?? '').slice(0, 9));
  const headers: Record<string, string> = {};
  const reply = {
    headers(values: Record<string, string>) {
      Object.assign(headers, values);
      return reply;
    },
  } as unknown as FastifyReply;
  try {
    await h.hook(request, reply);
    return { status: 200, tenantId: request.auth!.tenantId, headers };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return {
      status: err.status,
      tag: err.tag,
      message: err.message,
      ...(err.retryAfterSeconds !== undefined ? { retryAfter: err.retryAfterSeconds } : {}),
      headers: { ...headers, ...err.headers },
    };
  }
}

async function exhaustFailureBudget(h: Harness, ip = ADDRESS): Promise<void> {
  for (let i = 0; i < FAILURE_LIMIT; i++) {
    expect(await call(h, `qrp_guess${i}00_${'x'.repeat(32)}`, { ip })).toMatchObject({
      status: 401,
      tag: 'AuthError',
      message: INVALID_KEY_MESSAGE,
    });
  }
}

describe('createAuthHook: the failed-key budget slows failing attempts, never valid keys', () => {
  it('answers a bad key 401 under the budget and 429 with retryAfter over it', async () => {
    const h = harness();
    await exhaustFailureBudget(h);
    const over = await call(h, `qrp_guessXX0_${'x'.repeat(32)}`);
    expect(over).toMatchObject({ status: 429, tag: 'RateLimitError', message: AUTH_FAILURES_MESSAGE });
    expect(over.status === 429 && over.retryAfter).toBe(60);
    expect(over.headers).toMatchObject({
      'retry-after': '60',
      'x-ratelimit-limit': String(FAILURE_LIMIT),
      'x-ratelimit-remaining': '0',
    });
    // An oversized key is a failure too, refused without a lookup.
    const lookups = h.lookups.count;
    expect(await call(h, 'k'.repeat(MAX_API_KEY_LENGTH + 1))).toMatchObject({ status: 429 });
    expect(h.lookups.count).toBe(lookups);
  });

  it('serves a valid key of another tenant, never seen before, from an address over its budget', async () => {
    const h = harness();
    await exhaustFailureBudget(h);
    expect(await call(h, `qrp_guessXX0_${'x'.repeat(32)}`)).toMatchObject({ status: 429 });
    const valid = await call(h, KEY_B);
    // Its own per-key limit (the tenant's override of 7), untouched by the address's failures.
    expect(valid).toEqual({
      status: 200,
      tenantId: 'ten_b',
      headers: expect.objectContaining({ 'x-ratelimit-limit': '7', 'x-ratelimit-remaining': '6' }),
    });
    expect(await call(h, `qrp_guessXX1_${'x'.repeat(32)}`)).toMatchObject({ status: 429 });
  });

  it('never spends or resets the failure budget on valid requests', async () => {
    const h = harness();
    expect(await call(h, `qrp_guess000_${'x'.repeat(32)}`)).toMatchObject({ status: 401 });
    for (let i = 0; i < 5; i++) expect(await call(h, KEY_A)).toMatchObject({ status: 200 });
    expect(h.consumed.filter((k) => k.startsWith('authfail:'))).toHaveLength(1);
    expect(await call(h, `qrp_guess001_${'x'.repeat(32)}`)).toMatchObject({ status: 401 });
    expect(await call(h, KEY_A)).toMatchObject({ status: 200 });
    expect(await call(h, `qrp_guess002_${'x'.repeat(32)}`)).toMatchObject({ status: 401 });
    expect(await call(h, `qrp_guess003_${'x'.repeat(32)}`)).toMatchObject({ status: 429 });
    expect(await call(h, KEY_A)).toMatchObject({ status: 200 });
    expect(h.consumed.filter((k) => k === 'key:qrp_TenantAa')).toHaveLength(7);
  });

  it('tells a missing key so even over the budget, and does not count it', async () => {
    const h = harness();
    for (let i = 0; i < 5; i++) {
      expect(await call(h, undefined)).toMatchObject({ status: 401, message: MISSING_KEY_MESSAGE });
    }
    await exhaustFailureBudget(h);
    expect(await call(h, undefined)).toMatchObject({ status: 401, message: MISSING_KEY_MESSAGE });
  });

  it('keeps the budget per address', async () => {
    const h = harness();
    await exhaustFailureBudget(h);
    expect(await call(h, `qrp_guessXX0_${'x'.repeat(32)}`)).toMatchObject({ status: 429 });
    expect(await call(h, `qrp_guessXX0_${'x'.repeat(32)}`, { ip: OTHER_ADDRESS })).toMatchObject({
      status: 401,
    });
  });

  it('answers refusals from memory, retryAfter counting down, until the budget frees a slot', async () => {
    const h = harness();
    await exhaustFailureBudget(h);
    expect(await call(h, `qrp_guessXX0_${'x'.repeat(32)}`)).toMatchObject({ status: 429, retryAfter: 60 });
    const consumed = h.consumed.length;
    h.clock.now += 20_500;
    expect(await call(h, `qrp_guessXX1_${'x'.repeat(32)}`)).toMatchObject({ status: 429, retryAfter: 40 });
    expect(h.consumed.length).toBe(consumed);
    // One window after the failures, their slots are free: attempts are checked and counted again.
    h.clock.now += 39_500;
    expect(await call(h, `qrp_guessXX2_${'x'.repeat(32)}`)).toMatchObject({ status: 401 });
    expect(h.consumed.length).toBe(consumed + 1);
  });

  it('answers a repeated bad key from the unknown-key cache, without the database', async () => {
    const h = harness();
    const bad = `qrp_guess000_${'x'.repeat(32)}`;
    for (let i = 0; i < 10; i++) await call(h, bad);
    expect(h.lookups.count).toBe(1);
  });

  it('over the budget, looks up one uncached key at a time per address; a valid key waits, never refused', async () => {
    const h = harness({ lookupMs: 2 });
    await exhaustFailureBudget(h);
    expect(await call(h, `qrp_guessXX0_${'x'.repeat(32)}`)).toMatchObject({ status: 429 });
    const flood = Array.from({ length: 20 }, (_, i) => call(h, `qrp_flood${i}0_${'y'.repeat(32)}`));
    const valid = call(h, KEY_A);
    const elsewhere = Array.from({ length: 5 }, (_, i) =>
      call(h, `qrp_other${i}0_${'z'.repeat(32)}`, { ip: OTHER_ADDRESS }),
    );
    const results = await Promise.all(flood);
    expect(results.every((r) => r.status === 429)).toBe(true);
    expect(await valid).toMatchObject({ status: 200, tenantId: 'ten_a' });
    expect((await Promise.all(elsewhere)).map((r) => r.status)).toEqual([401, 401, 401, 429, 429]);
    // The address over its budget held one flood lookup at a time; the other address, under its
    // budget, looked up side by side meanwhile.
    expect(h.lookups.maxInFlight.get('qrp_flood')).toBe(1);
    expect(h.lookups.maxInFlight.get('qrp_other')).toBe(5);
    expect(h.lookups.count).toBe(FAILURE_LIMIT + 1 + 20 + 1 + 5);
  });

  it('over the budget, answers a cached valid key at once, ahead of the queued lookups', async () => {
    const h = harness({ lookupMs: 5 });
    expect(await call(h, KEY_A)).toMatchObject({ status: 200 });
    await exhaustFailureBudget(h);
    expect(await call(h, `qrp_guessXX0_${'x'.repeat(32)}`)).toMatchObject({ status: 429 });
    const finished: string[] = [];
    const flood = Array.from({ length: 10 }, (_, i) =>
      call(h, `qrp_flood${i}0_${'y'.repeat(32)}`).then(() => finished.push('flood')),
    );
    await call(h, KEY_A).then((r) => {
      expect(r.status).toBe(200);
      finished.push('valid');
    });
    await Promise.all(flood);
    expect(finished[0]).toBe('valid');
  });

  it('skips the lookup of a queued request whose client is gone', async () => {
    const h = harness();
    await exhaustFailureBudget(h);
    expect(await call(h, `qrp_guessXX0_${'x'.repeat(32)}`)).toMatchObject({ status: 429 });
    const lookups = h.lookups.count;
    await call(h, `qrp_guessXX1_${'x'.repeat(32)}`, { gone: true });
    expect(h.lookups.count).toBe(lookups);
  });
});

describe('stillRefused', () => {
  it('keeps the budget and shortens the wait by the time elapsed, never below 1 ms', () => {
    const result = {
      allowed: false,
      limit: 30,
      remaining: 0,
      resetAtMs: 61_000,
      retryAfterMs: 10_000,
      nowMs: 5_000,
    };
    expect(stillRefused({ result, atMs: 100 }, 4_100)).toEqual({
      ...result,
      retryAfterMs: 6_000,
      nowMs: 9_000,
    });
    expect(stillRefused({ result, atMs: 100 }, 99_000).retryAfterMs).toBe(1);
  });
});

describe('createSerialLanes', () => {
  it('runs one lane in arrival order, lanes side by side, a failure not stalling its lane', async () => {
    const lanes = createSerialLanes();
    const events: string[] = [];
    const step =
      (name: string, ms: number, fail = false) =>
      async () => {
        events.push(`start ${name}`);
        await delay(ms);
        events.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const a1 = lanes.run('a', step('a1', 5, true));
    const a2 = lanes.run('a', step('a2', 1));
    const b1 = lanes.run('b', step('b1', 1));
    expect(lanes.size).toBe(2);
    await expect(a1).rejects.toThrow('a1');
    await expect(a2).resolves.toBe('a2');
    await expect(b1).resolves.toBe('b1');
    expect(events.indexOf('start a2')).toBeGreaterThan(events.indexOf('end a1'));
    expect(events.indexOf('start b1')).toBeLessThan(events.indexOf('end a1'));
    await delay(0);
    expect(lanes.size).toBe(0);
  });
});
