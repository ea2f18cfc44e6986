import type { Logger } from '@qr-payout/platform/log';
import {
  type CallOptions,
  type CreatedTenant,
  type CreateTenantInput,
  createTenantCreation,
  type SigningSecretClient,
} from './creation';
import { apiKeyNotFound, invalidTenantInput, tenantNotFound } from './errors';
import { normalizeRateLimit, requireTenantId } from './input';
import { type AuthenticatedKey, createKeyAuthentication } from './key-authentication';
import { generateApiKey, hashApiKey } from './keys';
import type * as store from './store';

export type { CallOptions, CreatedTenant, CreateTenantInput, SigningSecretClient } from './creation';
export type { ApiKeyRow as ApiKey, TenantRow as Tenant } from './store';

export interface CreatedApiKey {
  key: store.ApiKeyRow;
  /** The key in clear, shown once. */
  apiKey: string;
}

export interface TenantService {
  /**
   * The tenant of a raw `x-api-key`, or null when the key is unknown or revoked. Results are cached
   * in process (see createTenantService): a revocation takes effect within `authCacheTtlMs`.
   * A caller that already hashed the key (the auth hook, hashApiKeyHex) passes the hash so the
   * key is hashed once per request.
   */
  authenticate(rawKey: string, keyHashHex?: string): Promise<AuthenticatedKey | null>;
  /**
   * What `authenticate` would answer from the in-process caches alone, by the key's SHA-256 (hex):
   * the key, null for a key known to be unknown or revoked, undefined when only the database knows.
   */
  cachedAuthentication(keyHashHex: string): AuthenticatedKey | null | undefined;
  createTenant(input: CreateTenantInput, opts?: CallOptions): Promise<CreatedTenant>;
  getTenant(tenantId: string): Promise<store.TenantRow>;
  listTenants(): Promise<store.TenantRow[]>;
  /** Sets the rate-limit override; 0 or null returns the tenant to the default. */
  updateTenant(tenantId: string, change: { rateLimitPerMinute: number | null }): Promise<store.TenantRow>;
  createApiKey(tenantId: string): Promise<CreatedApiKey>;
  revokeApiKey(prefix: string): Promise<store.ApiKeyRow>;
  listApiKeys(tenantId: string): Promise<store.ApiKeyRow[]>;
}

export interface TenantServiceDeps {
  /** Tenants and API keys in schema gateway, built once in start.ts. */
  store: store.PooledTenantStore;
  webhook: SigningSecretClient;
  logger: Logger;
  /**
   * Requests per minute for tenants without an override (RATE_LIMIT_DEFAULT,
   * docs/api/rate-limits.md "Per key": 100).
   */
  defaultRateLimit: number;
  /** How long a known key stays cached; a revocation on another replica takes up to this long. */
  authCacheTtlMs?: number;
  /** How long an unknown or revoked key stays cached. */
  negativeCacheTtlMs?: number;
  /** Bound of each cache (known keys, unknown keys). */
  authCacheMaxEntries?: number;
}

export function createTenantService(deps: TenantServiceDeps): TenantService {
  const { store: tenants, webhook, logger, defaultRateLimit } = deps;
  const ttlMs = deps.authCacheTtlMs ?? 10_000;
  const negativeTtlMs = deps.negativeCacheTtlMs ?? Math.min(2_000, ttlMs);
  const authentication = createKeyAuthentication({
    tenants,
    defaultRateLimit,
    ttlMs,
    negativeTtlMs,
    maxEntries: deps.authCacheMaxEntries ?? 10_000,
  });

  async function getTenant(tenantId: string): Promise<store.TenantRow> {
    const tenant = await tenants.findTenant(requireTenantId(tenantId));
    if (!tenant) throw tenantNotFound(tenantId);
    return tenant;
  }

  async function updateTenant(
    tenantId: string,
    change: { rateLimitPerMinute: number | null },
  ): Promise<store.TenantRow> {
    const rateLimitPerMinute = normalizeRateLimit(change.rateLimitPerMinute);
    const tenant = await tenants.setTenantRateLimit(requireTenantId(tenantId), rateLimitPerMinute);
    if (!tenant) throw tenantNotFound(tenantId);
    authentication.forgetWhere((k) => k.tenantId === tenantId);
    logger.info(
      { tenant_id: tenantId, rate_limit_per_minute: rateLimitPerMinute },
      'tenant rate limit changed',
    );
    return tenant;
  }

  async function createApiKey(tenantId: string): Promise<CreatedApiKey> {
    await getTenant(tenantId);
    const generated = generateApiKey();
    const key = await tenants.insertApiKey({
      prefix: generated.prefix,
      keyHash: hashApiKey(generated.key),
      tenantId,
    });
    // 62^8 public ids: a collision is astronomically unlikely, but never silently drop a key.
    if (!key) throw new Error('API key prefix collision; try again');
    logger.info({ tenant_id: tenantId, key_prefix: key.prefix }, 'API key created');
    return { key, apiKey: generated.key };
  }

  async function revokeApiKey(prefix: string): Promise<store.ApiKeyRow> {
    if (!prefix) throw invalidTenantInput('key_prefix', 'key_prefix is required');
    const key = await tenants.markApiKeyRevoked(prefix);
    if (!key) throw apiKeyNotFound(prefix);
    // Effective at once on this replica; other replicas drop it when their cache entry expires.
    authentication.forgetWhere((k) => k.keyPrefix === prefix);
    logger.info({ tenant_id: key.tenantId, key_prefix: key.prefix }, 'API key revoked');
    return key;
  }

  async function listApiKeys(tenantId: string): Promise<store.ApiKeyRow[]> {
    await getTenant(tenantId);
    return tenants.selectApiKeys(tenantId);
  }

  return {
    authenticate: authentication.authenticate,
    cachedAuthentication: authentication.cachedAuthentication,
    createTenant: createTenantCreation({ tenants, webhook, logger, getTenant }),
    getTenant,
    listTenants: () => tenants.selectTenants(),
    updateTenant,
    createApiKey,
    revokeApiKey,
    listApiKeys,
  };
}
