// A small in-process cache with a per-entry expiry and a hard size bound: when full, the oldest
// entry goes first, so a flood of distinct random keys cannot grow memory without limit.

export interface BoundedTtlCache<V> {
  /** The cached value wrapped in `{ value }`, or undefined on a miss or an expired entry. */
  get(key: string): { value: V } | undefined;
  set(key: string, value: V, ttlMs: number): void;
  /** Drops every entry whose value matches (used on local revocation and limit changes). */
  deleteWhere(matches: (value: V) => boolean): void;
  readonly size: number;
}

export function createBoundedTtlCache<V>(opts: {
  maxEntries: number;
  now?: () => number;
}): BoundedTtlCache<V> {
  const now = opts.now ?? Date.now;
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return { value: entry.value };
    },
    set(key, value, ttlMs) {
      if (ttlMs <= 0 || opts.maxEntries <= 0) return;
      entries.delete(key);
      while (entries.size >= opts.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      entries.set(key, { value, expiresAt: now() + ttlMs });
    },
    deleteWhere(matches) {
      for (const [key, entry] of entries) if (matches(entry.value)) entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
