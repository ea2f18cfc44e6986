// The dispatcher's view of each tenant's enabled endpoints, kept for a short time
// (WEBHOOK_ENDPOINT_CACHE_MS, README "Dispatcher"): without it every Kafka batch read them again,
// the largest cost of a payment event in this service when most tenants have no endpoint.
import type { TenantEndpoint } from './store';

/** The tenants the loader knows, with their enabled endpoints; an unknown tenant is absent. */
export type LoadTenantEndpoints = (tenantIds: string[]) => Promise<Map<string, TenantEndpoint[]>>;

export type TenantEndpointCache = {
  /**
   * The endpoints of `tenantIds` as `load` answers them, read for the tenants not read within the
   * TTL only (one load for all of them). A tenant `load` does not know is remembered as unknown
   * for the TTL too.
   */
  get(tenantIds: readonly string[]): Promise<Map<string, TenantEndpoint[]>>;
  /** Forgets a tenant (its endpoints changed in this process): its next event reads them again. */
  invalidate(tenantId: string): void;
};

type Entry = { endpoints: TenantEndpoint[] | undefined; readAt: number };

export function createTenantEndpointCache(opts: {
  load: LoadTenantEndpoints;
  /** How long a read is used; 0 reads on every call. */
  ttlMs: number;
  now?: () => number;
}): TenantEndpointCache {
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();

  return {
    async get(tenantIds) {
      const at = now();
      const stale = [...new Set(tenantIds)].filter((id) => {
        const entry = entries.get(id);
        return !entry || at - entry.readAt >= opts.ttlMs;
      });
      if (stale.length > 0) {
        const loaded = await opts.load(stale);
        // Entries are written only after the load: a concurrent invalidate() during it may be
        // overwritten by the older read, which then lives one TTL at most.
        for (const id of stale) entries.set(id, { endpoints: loaded.get(id), readAt: at });
        // Tenants seen once and never again must not accumulate: drop what has expired.
        if (entries.size > 10_000) {
          for (const [id, entry] of entries) if (at - entry.readAt >= opts.ttlMs) entries.delete(id);
        }
      }
      const answer = new Map<string, TenantEndpoint[]>();
      for (const id of tenantIds) {
        const endpoints = entries.get(id)?.endpoints;
        if (endpoints) answer.set(id, endpoints);
      }
      return answer;
    },
    invalidate(tenantId) {
      entries.delete(tenantId);
    },
  };
}
