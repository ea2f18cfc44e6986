import { randomUUID } from 'node:crypto';
import type { Logger } from '@qr-payout/platform/log';
import type {
  BeginResult,
  CachedResponse,
  IdempotencyCache,
  IdempotencyLock,
  IdempotencyScope,
} from './cache';

// The idempotency cache of one process, for a gateway without Redis (RATE_LIMIT_BACKEND=memory:
// the sandbox), so 409 IdempotencyInProgress and replays behave as in production. Each step does
// what the Lua script of the same step in redis-cache.ts does, with a record's expiry in place of
// PEXPIRE: a lock lives lockTtlMs from first sight, a response until ttlMs after first sight, and
// an expired record is gone (a later begin takes the key anew, its old holder can no longer
// complete or release it). Every step is synchronous, so two requests can never both take a lock.
// Memory is bounded: expired records are swept at most once per sweepIntervalMs, and at maxEntries
// the oldest record is evicted. Losing a record is what a Redis flush is: payout decides.

interface MemoryRecord {
  state: 'running' | 'done';
  fingerprint: string;
  /** The lock holder while running. */
  token: string | undefined;
  /** When the key was first seen (ms): the response lives until created + ttlMs. */
  created: number;
  expiresAt: number;
  status: number | undefined;
  /** The response body as JSON text, as Redis keeps it: each replay parses its own copy. */
  body: string | undefined;
}

export interface MemoryIdempotencyCacheOptions {
  keyPrefix: string;
  /** How long a lock lives when its holder never completes: longer than a request can run. */
  lockTtlMs: number;
  /**
   * How long after first sight a response is kept: payout's idempotency-key lifetime
   * (GetExecutionSettings, 24 h), so the cache never replays a key payout has forgotten.
   */
  ttlMs: () => Promise<number>;
  logger: Logger;
  /** Records kept at most; beyond it the oldest is evicted (its key then goes to payout). */
  maxEntries?: number;
  /** Expired records are dropped by a sweep at most this often (and when the cache is full). */
  sweepIntervalMs?: number;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
}

export interface MemoryIdempotencyCache extends IdempotencyCache {
  /** Records held, expired ones not yet swept included: never more than maxEntries. */
  readonly size: number;
  /** Drops every record, as a restart of the process would. */
  clear(): void;
}

export const DEFAULT_MEMORY_IDEMPOTENCY_MAX_ENTRIES = 10_000;
export const DEFAULT_MEMORY_IDEMPOTENCY_SWEEP_INTERVAL_MS = 60_000;

export function createMemoryIdempotencyCache(opts: MemoryIdempotencyCacheOptions): MemoryIdempotencyCache {
  const maxEntries = opts.maxEntries ?? DEFAULT_MEMORY_IDEMPOTENCY_MAX_ENTRIES;
  const sweepIntervalMs = opts.sweepIntervalMs ?? DEFAULT_MEMORY_IDEMPOTENCY_SWEEP_INTERVAL_MS;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be at least 1');
  const now = opts.now ?? Date.now;
  // Insertion order is first-sight order: a record is only ever inserted when its key is new.
  const records = new Map<string, MemoryRecord>();
  let lastSweep = now();

  // The same record name as in Redis: per tenant (docs/api/resources.md "Authentication"), the
  // client's key as sent.
  const recordKey = (scope: IdempotencyScope) => `${opts.keyPrefix}${scope.tenantId}:${scope.key}`;

  /** The record while it lives; an expired one is deleted, as Redis would have. */
  function live(key: string, at: number): MemoryRecord | undefined {
    const record = records.get(key);
    if (record && record.expiresAt <= at) {
      records.delete(key);
      return undefined;
    }
    return record;
  }

  function sweep(at: number): void {
    lastSweep = at;
    for (const [key, record] of records) if (record.expiresAt <= at) records.delete(key);
  }

  function makeRoom(at: number): void {
    if (records.size < maxEntries) return;
    sweep(at);
    for (const key of records.keys()) {
      if (records.size < maxEntries) break;
      records.delete(key);
    }
  }

  return {
    get size() {
      return records.size;
    },
    clear() {
      records.clear();
    },
    async begin(scope, fingerprint): Promise<BeginResult> {
      const at = now();
      if (at - lastSweep >= sweepIntervalMs) sweep(at);
      const key = recordKey(scope);
      const current = live(key, at);
      if (!current) {
        makeRoom(at);
        const token = randomUUID();
        records.set(key, {
          state: 'running',
          fingerprint,
          token,
          created: at,
          expiresAt: at + opts.lockTtlMs,
          status: undefined,
          body: undefined,
        });
        return { kind: 'acquired', lock: { recordKey: key, token } };
      }
      if (current.fingerprint !== fingerprint) return { kind: 'conflict' };
      if (current.state === 'running') return { kind: 'in_progress' };
      const response = parseCached(current.status, current.body);
      return response ? { kind: 'replay', response } : { kind: 'unavailable' };
    },
    async complete(lock: IdempotencyLock, response: CachedResponse) {
      let ttlMs: number;
      try {
        ttlMs = await opts.ttlMs();
      } catch (err) {
        // payout's key lifetime is unknown: store nothing and free the key, payout decides.
        opts.logger.warn(
          { err: { message: (err as Error)?.message }, step: 'complete' },
          'idempotency cache could not read the key lifetime; payout decides',
        );
        const current = live(lock.recordKey, now());
        if (current?.state === 'running' && current.token === lock.token) records.delete(lock.recordKey);
        return;
      }
      const at = now();
      const current = live(lock.recordKey, at);
      if (current?.state !== 'running' || current.token !== lock.token) return;
      let body: string;
      try {
        body = JSON.stringify(response.body);
      } catch (err) {
        // As with Redis: the response was sent; the next replay goes to payout.
        opts.logger.warn(
          { err: { message: (err as Error)?.message }, step: 'complete' },
          'idempotency cache could not store the response; payout decides',
        );
        return;
      }
      const remaining = current.created + ttlMs - at;
      if (remaining <= 0) {
        records.delete(lock.recordKey);
        return;
      }
      current.state = 'done';
      current.status = response.status;
      current.body = body;
      current.token = undefined;
      current.expiresAt = at + remaining;
    },
    async release(lock: IdempotencyLock) {
      const current = live(lock.recordKey, now());
      if (current?.state === 'running' && current.token === lock.token) records.delete(lock.recordKey);
    },
  };
}

function parseCached(status: number | undefined, body: string | undefined): CachedResponse | undefined {
  if (status === undefined || !Number.isInteger(status) || body === undefined) return undefined;
  const parsed: unknown = JSON.parse(body);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  return { status, body: parsed as Record<string, unknown> };
}
