// Delivery is at least once (docs/api/webhooks.md "Delivery semantics"): the same event can arrive
// again, for example when your 2xx answer was lost. Receivers record `event_id` with a uniqueness
// guarantee and answer 2xx to duplicates. In production that record is a table with a UNIQUE
// event_id, written in the same transaction as the processing (README "Deduplication").

export interface EventDeduplicator {
  /**
   * Records `eventId`; resolves true the first time, false when it was already recorded.
   * Must be atomic: of two concurrent calls with the same id, at most one resolves true.
   */
  firstSeen(eventId: string): Promise<boolean>;
  /**
   * Optional: forgets `eventId`, so that a redelivery is processed again. Call it when your
   * processing failed after `firstSeen` returned true and you answer an error (the service retries).
   */
  forget?(eventId: string): Promise<void>;
}

export type MemoryDeduplicatorOptions = {
  /**
   * How long an id is remembered; default 7 days (the retry horizon is about 6.2 days,
   * docs/api/webhooks.md "Retries").
   */
  ttlMs?: number;
  /** At most this many ids are kept; the oldest are dropped first. Default 100 000. */
  maxEntries?: number;
  /** Clock in ms (tests); default Date.now. */
  now?: () => number;
};

export type MemoryDeduplicator = EventDeduplicator & {
  forget(eventId: string): Promise<void>;
  /** Ids currently remembered. */
  readonly size: number;
};

export const DEFAULT_DEDUPE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_DEDUPE_MAX_ENTRIES = 100_000;

/**
 * An in-memory, bounded deduplicator for development, tests and single-process receivers. It is
 * lost on restart and not shared between instances, and an id evicted by `maxEntries` or `ttlMs`
 * is processed again if redelivered: production receivers use a table (README).
 */
export function createMemoryDeduplicator(opts: MemoryDeduplicatorOptions = {}): MemoryDeduplicator {
  const ttlMs = opts.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
  const maxEntries = opts.maxEntries ?? DEFAULT_DEDUPE_MAX_ENTRIES;
  const now = opts.now ?? Date.now;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new TypeError('ttlMs must be a positive number');
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError('maxEntries must be a positive integer');
  }
  // Insertion order is expiry order (one ttl for all), so expired ids are always at the front.
  const expiresAt = new Map<string, number>();

  function prune(at: number): void {
    for (const [id, expiry] of expiresAt) {
      if (expiry > at) break;
      expiresAt.delete(id);
    }
  }

  return {
    async firstSeen(eventId) {
      if (typeof eventId !== 'string' || eventId === '')
        throw new TypeError('eventId must be a non-empty string');
      const at = now();
      prune(at);
      if (expiresAt.has(eventId)) return false;
      expiresAt.set(eventId, at + ttlMs);
      while (expiresAt.size > maxEntries) {
        const oldest = expiresAt.keys().next().value as string;
        expiresAt.delete(oldest);
      }
      return true;
    },
    async forget(eventId) {
      expiresAt.delete(eventId);
    },
    get size() {
      prune(now());
      return expiresAt.size;
    },
  };
}
