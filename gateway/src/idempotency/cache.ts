// The gateway's fast path of idempotency (docs/api/idempotency.md "The Idempotency-Key"): one
// record per (tenant, key) that is first a lock while the request runs, then the response to
// replay. The durable guarantee is payout's idempotency_keys table; this cache only answers replays
// and concurrent duplicates without a call, so losing it (flush, outage) can never cause a second
// payout, only a call to payout.

/** A response as it is replayed: status and body. The body's request_id is the replay's own. */
export interface CachedResponse {
  status: number;
  body: Record<string, unknown>;
}

/** Who holds a key's lock: only the holder may complete or release it. */
export interface IdempotencyLock {
  readonly recordKey: string;
  readonly token: string;
}

export type BeginResult =
  | { kind: 'acquired'; lock: IdempotencyLock }
  | { kind: 'replay'; response: CachedResponse }
  | { kind: 'in_progress' }
  | { kind: 'conflict' }
  /** The cache could not answer (outage, timeout, no cache configured): payout decides. */
  | { kind: 'unavailable' };

export interface IdempotencyScope {
  tenantId: string;
  key: string;
}

export interface IdempotencyCache {
  begin(scope: IdempotencyScope, fingerprint: string): Promise<BeginResult>;
  /** Stores the final response for replays until 24 h after the key was first seen. Never throws. */
  complete(lock: IdempotencyLock, response: CachedResponse): Promise<void>;
  /** Drops the lock without storing anything (a 5xx): the next attempt runs again. Never throws. */
  release(lock: IdempotencyLock): Promise<void>;
}

/**
 * No cache: every request goes to payout, which decides. For tests of the routes; a gateway uses
 * Redis (redis-cache.ts) or, with RATE_LIMIT_BACKEND=memory (the sandbox), memory-cache.ts.
 */
export const NO_IDEMPOTENCY_CACHE: IdempotencyCache = {
  begin: async () => ({ kind: 'unavailable' }),
  complete: async () => undefined,
  release: async () => undefined,
};
