import type { JsonWebKey } from 'node:crypto';

// JWKS documents by URL, kept for a TTL so a busy decoder does not fetch a PSP's keys for every
// QR. A kid missing from a cached set is fetched again (the PSP may have rotated its key), at most
// once per REFRESH_INTERVAL_MS per URL, so random kids cannot turn every request into a fetch.
// Concurrent misses share one fetch; failures are not cached; the oldest URL goes first when full.

export const REFRESH_INTERVAL_MS = 10_000;

export type JwksCacheOptions = {
  ttlMs: number;
  maxEntries?: number;
  /** Fetches and parses one JWKS document by `deadline` (epoch ms); throws when it cannot. */
  load: (url: string, deadline: number) => Promise<readonly JsonWebKey[]>;
  now?: () => number;
};

export type JwksCache = {
  /**
   * The keys published at `url` with `kid` (every key when kid is undefined). A fetch this call
   * starts must finish by `deadline`; one already running for the URL is shared as it is.
   */
  keysFor(url: string, kid: string | undefined, deadline: number): Promise<readonly JsonWebKey[]>;
};

type Entry = { keys: readonly JsonWebKey[]; fetchedAt: number };

export function createJwksCache(opts: JwksCacheOptions): JwksCache {
  const now = opts.now ?? Date.now;
  const maxEntries = opts.maxEntries ?? 256;
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<Entry>>();

  function load(url: string, deadline: number): Promise<Entry> {
    let pending = loading.get(url);
    if (!pending) {
      pending = opts
        .load(url, deadline)
        .then((keys) => {
          const entry = { keys, fetchedAt: now() };
          entries.delete(url);
          entries.set(url, entry);
          while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
          return entry;
        })
        .finally(() => loading.delete(url));
      loading.set(url, pending);
    }
    return pending;
  }

  const matching = (entry: Entry, kid: string | undefined) =>
    kid === undefined ? entry.keys : entry.keys.filter((key) => key.kid === kid);

  return {
    async keysFor(url, kid, deadline) {
      const cached = entries.get(url);
      const fresh = cached && now() - cached.fetchedAt < opts.ttlMs ? cached : undefined;
      if (!fresh) return matching(await load(url, deadline), kid);
      const found = matching(fresh, kid);
      if (found.length > 0 || now() - fresh.fetchedAt < REFRESH_INTERVAL_MS) return found;
      return matching(await load(url, deadline), kid);
    },
  };
}
