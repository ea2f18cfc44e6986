// The API key check of the public API (docs/api/resources.md "Authentication"), with its
// in-process caches: a known key answers from memory for a while, an unknown one too.
import { createBoundedTtlCache } from './auth-cache';
import { GIVEN_KEY_MAX_LENGTH, hashApiKeyHex } from './keys';
import type { TenantStore } from './store';

/**
 * What the public API needs to know about a caller once its `x-api-key` is checked
 * (docs/api/resources.md "Authentication").
 */
export interface AuthenticatedKey {
  tenantId: string;
  /** Public prefix of the key: safe to log and to use as the rate-limit bucket name. */
  keyPrefix: string;
  /** The tenant's override, or the default when it has none (docs/api/rate-limits.md "Per key": 100). */
  rateLimitPerMinute: number;
}

export type KeyAuthentication = {
  authenticate(rawKey: string, keyHashHex?: string): Promise<AuthenticatedKey | null>;
  cachedAuthentication(keyHashHex: string): AuthenticatedKey | null | undefined;
  /** Drops the known keys that match, on this replica at once (a revocation, a limit change). */
  forgetWhere(matches: (key: AuthenticatedKey) => boolean): void;
};

export function createKeyAuthentication(deps: {
  tenants: Pick<TenantStore, 'findKeyOwnerByHash'>;
  defaultRateLimit: number;
  /** How long a known key stays cached. */
  ttlMs: number;
  /** How long an unknown or revoked key stays cached. */
  negativeTtlMs: number;
  /** Bound of each cache (known keys, unknown keys). */
  maxEntries: number;
}): KeyAuthentication {
  const { tenants, defaultRateLimit, ttlMs, negativeTtlMs, maxEntries } = deps;
  // Keyed by the key's SHA-256 (hex), never by the key itself. Unknown keys get their own cache so
  // a flood of random keys evicts only other unknown keys, not the known ones.
  const known = createBoundedTtlCache<AuthenticatedKey>({ maxEntries });
  const unknown = createBoundedTtlCache<null>({ maxEntries });
  const inFlight = new Map<string, Promise<AuthenticatedKey | null>>();

  async function lookUp(cacheKey: string): Promise<AuthenticatedKey | null> {
    const owner = await tenants.findKeyOwnerByHash(Buffer.from(cacheKey, 'hex'));
    if (!owner || owner.revokedAt) {
      unknown.set(cacheKey, null, negativeTtlMs);
      return null;
    }
    const result: AuthenticatedKey = {
      tenantId: owner.tenantId,
      keyPrefix: owner.prefix,
      rateLimitPerMinute: owner.rateLimitPerMinute ?? defaultRateLimit,
    };
    known.set(cacheKey, result, ttlMs);
    return result;
  }

  function cachedAuthentication(keyHashHex: string): AuthenticatedKey | null | undefined {
    const hit = known.get(keyHashHex) ?? unknown.get(keyHashHex);
    return hit?.value;
  }

  async function authenticate(rawKey: string, keyHashHex?: string): Promise<AuthenticatedKey | null> {
    if (typeof rawKey !== 'string' || rawKey.length === 0 || rawKey.length > GIVEN_KEY_MAX_LENGTH)
      return null;
    const cacheKey = keyHashHex ?? hashApiKeyHex(rawKey);
    const hit = cachedAuthentication(cacheKey);
    if (hit !== undefined) return hit;
    // Concurrent requests with the same key share one query.
    let pending = inFlight.get(cacheKey);
    if (!pending) {
      pending = lookUp(cacheKey).finally(() => inFlight.delete(cacheKey));
      inFlight.set(cacheKey, pending);
    }
    return pending;
  }

  return {
    authenticate,
    cachedAuthentication,
    forgetWhere: (matches) => known.deleteWhere(matches),
  };
}
