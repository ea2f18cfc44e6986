import { silentLogger } from '@qr-payout/platform/log';
import type { BeginResult, IdempotencyLock } from './cache';
import { createMemoryIdempotencyCache, type MemoryIdempotencyCacheOptions } from './memory-cache';

// The memory cache on a fake clock: the steps of redis-cache.ts's Lua scripts (behaviour shared
// with Redis is also run against both in test/idempotency.int.test.ts), plus bounded memory.

function setup({
  ttlMs = 10_000,
  ...opts
}: Partial<Omit<MemoryIdempotencyCacheOptions, 'ttlMs'>> & { ttlMs?: number } = {}) {
  let clock = 1_000_000;
  const cache = createMemoryIdempotencyCache({
    keyPrefix: 'idem:',
    lockTtlMs: 1_000,
    // payout's key lifetime, as GetExecutionSettings gives it.
    ttlMs: async () => ttlMs,
    logger: silentLogger(),
    now: () => clock,
    ...opts,
  });
  return {
    cache,
    advance(ms: number) {
      clock += ms;
    },
  };
}

const scope = (key: string, tenantId = 'ten_a') => ({ tenantId, key });

function lockOf(result: BeginResult): IdempotencyLock {
  if (result.kind !== 'acquired') throw new Error(`expected acquired, got ${result.kind}`);
  return result.lock;
}

describe('memory idempotency cache', () => {
  it('locks a new key, answers in_progress / conflict meanwhile, replays the completed response', async () => {
    const { cache } = setup();
    const lock = lockOf(await cache.begin(scope('k'), 'fp1'));
    expect(lock.recordKey).toBe('idem:ten_a:k');
    expect(await cache.begin(scope('k'), 'fp1')).toEqual({ kind: 'in_progress' });
    expect(await cache.begin(scope('k'), 'fp2')).toEqual({ kind: 'conflict' });
    await cache.complete(lock, { status: 200, body: { a: 1 } });
    expect(await cache.begin(scope('k'), 'fp1')).toEqual({
      kind: 'replay',
      response: { status: 200, body: { a: 1 } },
    });
    expect(await cache.begin(scope('k'), 'fp2')).toEqual({ kind: 'conflict' });
  });

  it('keys are per tenant', async () => {
    const { cache } = setup();
    lockOf(await cache.begin(scope('k', 'ten_a'), 'fp'));
    expect((await cache.begin(scope('k', 'ten_b'), 'other')).kind).toBe('acquired');
  });

  it('each replay gets its own copy of the stored body, as JSON text in Redis would give', async () => {
    const { cache } = setup();
    const body: Record<string, unknown> = { nested: { n: 1 }, dropped: undefined };
    const lock = lockOf(await cache.begin(scope('k'), 'fp'));
    await cache.complete(lock, { status: 200, body });
    (body.nested as { n: number }).n = 2;
    const first = await cache.begin(scope('k'), 'fp');
    if (first.kind !== 'replay') throw new Error(first.kind);
    expect(first.response.body).toEqual({ nested: { n: 1 } });
    first.response.body.nested = 'changed';
    expect(await cache.begin(scope('k'), 'fp')).toEqual({
      kind: 'replay',
      response: { status: 200, body: { nested: { n: 1 } } },
    });
  });

  it('only the lock holder completes or releases', async () => {
    const { cache } = setup();
    const lock = lockOf(await cache.begin(scope('k'), 'fp'));
    await cache.complete({ ...lock, token: 'someone-else' }, { status: 200, body: {} });
    await cache.release({ ...lock, token: 'someone-else' });
    expect((await cache.begin(scope('k'), 'fp')).kind).toBe('in_progress');
    await cache.release(lock);
    expect((await cache.begin(scope('k'), 'fp')).kind).toBe('acquired');
  });

  it('a released or completed lock cannot be completed or released again', async () => {
    const { cache } = setup();
    const lock = lockOf(await cache.begin(scope('k'), 'fp'));
    await cache.complete(lock, { status: 200, body: { first: true } });
    await cache.complete(lock, { status: 200, body: { second: true } });
    await cache.release(lock);
    expect(await cache.begin(scope('k'), 'fp')).toEqual({
      kind: 'replay',
      response: { status: 200, body: { first: true } },
    });
  });

  it('a lock expires lockTtlMs after first sight; its old holder can then neither complete nor release', async () => {
    const { cache, advance } = setup();
    const stale = lockOf(await cache.begin(scope('k'), 'fp'));
    advance(999);
    expect((await cache.begin(scope('k'), 'fp')).kind).toBe('in_progress');
    advance(1);
    // Expired: the key is new, whatever the body.
    const fresh = lockOf(await cache.begin(scope('k'), 'other-fp'));
    expect(fresh.token).not.toBe(stale.token);
    await cache.complete(stale, { status: 200, body: { stale: true } });
    await cache.release(stale);
    expect((await cache.begin(scope('k'), 'other-fp')).kind).toBe('in_progress');
    await cache.complete(fresh, { status: 200, body: { fresh: true } });
    expect(await cache.begin(scope('k'), 'other-fp')).toEqual({
      kind: 'replay',
      response: { status: 200, body: { fresh: true } },
    });
  });

  it('completing after the lock expired with nobody else on the key stores nothing', async () => {
    const { cache, advance } = setup();
    const lock = lockOf(await cache.begin(scope('k'), 'fp'));
    advance(1_000);
    await cache.complete(lock, { status: 200, body: {} });
    expect(cache.size).toBe(0);
    expect((await cache.begin(scope('k'), 'fp')).kind).toBe('acquired');
  });

  it('a response lives until ttlMs after the key was first seen, not after completion', async () => {
    const { cache, advance } = setup({ lockTtlMs: 5_000, ttlMs: 10_000 });
    const lock = lockOf(await cache.begin(scope('k'), 'fp'));
    advance(4_000);
    await cache.complete(lock, { status: 200, body: {} });
    advance(5_999);
    expect((await cache.begin(scope('k'), 'fp')).kind).toBe('replay');
    advance(1);
    expect((await cache.begin(scope('k'), 'other-fp')).kind).toBe('acquired');
  });

  it("stores nothing and frees the key when payout's key lifetime cannot be read", async () => {
    const { cache } = setup({});
    const broken = createMemoryIdempotencyCache({
      keyPrefix: 'idem:',
      lockTtlMs: 60_000,
      ttlMs: async () => {
        throw new Error('payout unavailable');
      },
      logger: silentLogger(),
    });
    const lock = lockOf(await broken.begin(scope('k'), 'fp'));
    await broken.complete(lock, { status: 200, body: {} });
    expect((await broken.begin(scope('k'), 'fp')).kind).toBe('acquired');
    expect(cache.size).toBe(0);
  });

  it('completing at or after ttlMs from first sight drops the record (a lock outliving the key)', async () => {
    const { cache, advance } = setup({ lockTtlMs: 20_000, ttlMs: 10_000 });
    const lock = lockOf(await cache.begin(scope('k'), 'fp'));
    advance(10_000);
    await cache.complete(lock, { status: 200, body: {} });
    expect(cache.size).toBe(0);
    expect((await cache.begin(scope('k'), 'fp')).kind).toBe('acquired');
  });

  it('a response that is not JSON is not stored; the lock stays until it expires', async () => {
    const { cache, advance } = setup();
    const lock = lockOf(await cache.begin(scope('k'), 'fp'));
    await cache.complete(lock, { status: 200, body: { amount: 1n } });
    expect((await cache.begin(scope('k'), 'fp')).kind).toBe('in_progress');
    advance(1_000);
    expect((await cache.begin(scope('k'), 'fp')).kind).toBe('acquired');
  });

  it('sweeps expired records at most once per sweepIntervalMs', async () => {
    const { cache, advance } = setup({ sweepIntervalMs: 5_000 });
    for (let i = 0; i < 3; i++) lockOf(await cache.begin(scope(`lock-${i}`), 'fp'));
    const done = lockOf(await cache.begin(scope('done'), 'fp'));
    await cache.complete(done, { status: 200, body: {} });
    advance(1_000);
    // The locks have expired; the next sweep is not due yet.
    lockOf(await cache.begin(scope('new-1'), 'fp'));
    expect(cache.size).toBe(5);
    advance(4_000);
    lockOf(await cache.begin(scope('new-2'), 'fp'));
    // Swept: the three expired locks and new-1 (expired too); done and new-2 remain.
    expect(cache.size).toBe(2);
    expect((await cache.begin(scope('done'), 'fp')).kind).toBe('replay');
  });

  it('holds at most maxEntries: expired records go first, then the oldest', async () => {
    const { cache, advance } = setup({ maxEntries: 3, sweepIntervalMs: 1_000_000 });
    const first = lockOf(await cache.begin(scope('k1'), 'fp'));
    await cache.complete(first, { status: 200, body: { k: 1 } });
    const expiring = lockOf(await cache.begin(scope('k2'), 'fp'));
    advance(500);
    const third = lockOf(await cache.begin(scope('k3'), 'fp'));
    await cache.complete(third, { status: 200, body: { k: 3 } });
    advance(500);
    // Full; k2's lock has expired: it makes the room.
    lockOf(await cache.begin(scope('k4'), 'fp'));
    expect(cache.size).toBe(3);
    expect((await cache.begin(scope('k1'), 'fp')).kind).toBe('replay');
    await cache.complete(expiring, { status: 200, body: {} });
    // Full, nothing expired: k1, the oldest, is evicted (its key now goes to payout).
    lockOf(await cache.begin(scope('k5'), 'fp'));
    expect(cache.size).toBe(3);
    expect((await cache.begin(scope('k3'), 'fp')).kind).toBe('replay');
    expect((await cache.begin(scope('k4'), 'fp')).kind).toBe('in_progress');
    expect((await cache.begin(scope('k5'), 'fp')).kind).toBe('in_progress');
    expect(cache.size).toBe(3);
    expect((await cache.begin(scope('k1'), 'fp')).kind).toBe('acquired');
    expect(cache.size).toBe(3);
  });

  it('clear drops everything', async () => {
    const { cache } = setup();
    lockOf(await cache.begin(scope('k'), 'fp'));
    cache.clear();
    expect(cache.size).toBe(0);
    expect((await cache.begin(scope('k'), 'fp')).kind).toBe('acquired');
  });

  it('refuses a maxEntries below 1', () => {
    expect(() => setup({ maxEntries: 0 })).toThrow(RangeError);
  });
});
