import type { Client } from '@connectrpc/connect';
import { newId } from '@qr-payout/platform/ids';
import type { Logger } from '@qr-payout/platform/log';
import type { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { apiKeyNotFound, invalidTenantInput, tenantNotFound } from './errors';
import { type AuthenticatedKey, createKeyAuthentication } from './key-authentication';
import { generateApiKey, givenKeyProblem, hashApiKey, keyPrefix } from './keys';
import type * as store from './store';

export type { ApiKeyRow as ApiKey, TenantRow as Tenant } from './store';

export interface CreateTenantInput {
  name: string;
  /** Override of the default rate limit; 0, null or absent: the default. */
  rateLimitPerMinute?: number | null;
  /** Sandbox bootstrap only: use this key (16 to 256 printable characters) instead of generating one. */
  apiKey?: string;
  /** Sandbox bootstrap only: use this signing secret instead of letting the webhook service generate one. */
  signingSecret?: string;
  /** Sandbox bootstrap only: use this id; when that tenant exists, it is returned with the key and secret ensured. */
  tenantId?: string;
}

export interface CreatedTenant {
  tenant: store.TenantRow;
  /** The key in clear, shown once; empty when an existing tenant was returned without a given key. */
  apiKey: string;
  /** The signing secret in clear, shown once; empty when an existing tenant was returned without a given secret. */
  signingSecret: string;
  /** False when `tenantId` named an existing tenant (idempotent bootstrap). */
  created: boolean;
}

export interface CreatedApiKey {
  key: store.ApiKeyRow;
  /** The key in clear, shown once. */
  apiKey: string;
}

export interface CallOptions {
  signal?: AbortSignal;
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

/** The part of the webhook service's gRPC client the tenant service uses. */
export type SigningSecretClient = Pick<Client<typeof WebhookService>, 'rotateSigningSecret'>;

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

export const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;
const MAX_NAME_LENGTH = 200;
const TENANT_ID_PATTERN = /^ten_[0-9A-Za-z_-]{1,60}$/;
const UNIQUE_VIOLATION = '23505';

function normalizeRateLimit(value: number | null | undefined): number | null {
  if (value === undefined || value === null || value === 0) return null;
  if (!Number.isInteger(value) || value < 0 || value > MAX_RATE_LIMIT_PER_MINUTE) {
    throw invalidTenantInput(
      'rate_limit_per_minute',
      `rate_limit_per_minute must be an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}, or 0 for the default`,
    );
  }
  return value;
}

function normalizeName(value: string): string {
  const name = (value ?? '').trim();
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
    throw invalidTenantInput('name', `name is required (1 to ${MAX_NAME_LENGTH} characters)`);
  }
  return name;
}

function requireTenantId(value: string): string {
  if (!value) throw invalidTenantInput('tenant_id', 'tenant_id is required');
  return value;
}

function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === UNIQUE_VIOLATION && (constraint === undefined || e.constraint === constraint);
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

  /** Makes sure a given key belongs to the tenant, storing it when it is new. */
  async function ensureGivenKey(tenantId: string, apiKey: string): Promise<void> {
    const keyHash = hashApiKey(apiKey);
    const existing = await tenants.findApiKeyByHash(keyHash);
    if (existing) {
      if (existing.tenantId !== tenantId) {
        throw invalidTenantInput('api_key', 'api_key is already in use by another tenant');
      }
      if (existing.revokedAt) {
        logger.warn({ tenant_id: tenantId, key_prefix: existing.prefix }, 'given API key is revoked');
      }
      return;
    }
    const inserted = await tenants.insertApiKey({ prefix: keyPrefix(apiKey), keyHash, tenantId });
    if (!inserted)
      throw invalidTenantInput('api_key', 'api_key prefix (its first 12 characters) is already in use');
  }

  async function setSigningSecret(tenantId: string, secret: string, opts?: CallOptions): Promise<string> {
    const res = await webhook.rotateSigningSecret({ tenantId, secret }, { signal: opts?.signal });
    return res.secret;
  }

  async function ensureExistingTenant(
    tenant: store.TenantRow,
    input: CreateTenantInput,
    opts?: CallOptions,
  ): Promise<CreatedTenant> {
    if (input.apiKey) await ensureGivenKey(tenant.id, input.apiKey);
    const signingSecret = input.signingSecret
      ? await setSigningSecret(tenant.id, input.signingSecret, opts)
      : '';
    return { tenant, apiKey: input.apiKey ?? '', signingSecret, created: false };
  }

  async function createTenant(input: CreateTenantInput, opts?: CallOptions): Promise<CreatedTenant> {
    const name = normalizeName(input.name);
    const rateLimitPerMinute = normalizeRateLimit(input.rateLimitPerMinute);
    if (input.apiKey) {
      const problem = givenKeyProblem(input.apiKey);
      if (problem) throw invalidTenantInput('api_key', problem);
    }
    if (input.tenantId) {
      if (!TENANT_ID_PATTERN.test(input.tenantId)) {
        throw invalidTenantInput(
          'tenant_id',
          'tenant_id must be "ten_" followed by 1 to 60 letters, digits, _ or -',
        );
      }
      const existing = await tenants.findTenant(input.tenantId);
      if (existing) return ensureExistingTenant(existing, input, opts);
    }

    const tenantId = input.tenantId || newId('ten');
    const generated = input.apiKey ? undefined : generateApiKey();
    const apiKey = input.apiKey ?? generated!.key;
    let tenant: store.TenantRow;
    try {
      // The tenant and its first key commit together.
      tenant = await tenants.inTransaction(async (inTransaction) => {
        const row = await inTransaction.insertTenant({ id: tenantId, name, rateLimitPerMinute });
        const inserted = await inTransaction.insertApiKey({
          prefix: generated?.prefix ?? keyPrefix(apiKey),
          keyHash: hashApiKey(apiKey),
          tenantId,
        });
        if (!inserted) {
          throw invalidTenantInput('api_key', 'api_key (or its first 12 characters) is already in use');
        }
        return row;
      });
    } catch (err) {
      // Two bootstraps racing on the same given id: the loser returns what the winner made.
      if (input.tenantId && isUniqueViolation(err, 'tenants_pkey')) {
        return ensureExistingTenant(await getTenant(input.tenantId), input, opts);
      }
      throw err;
    }

    let signingSecret: string;
    try {
      signingSecret = await setSigningSecret(tenantId, input.signingSecret ?? '', opts);
    } catch (err) {
      // Without its secret the tenant is unusable and nobody has seen its key: undo, so the operator
      // simply runs the command again.
      await tenants.deleteTenantWithKeys(tenantId).catch((cleanupErr: unknown) => {
        logger.error(
          { err: cleanupErr, tenant_id: tenantId },
          'could not remove tenant after signing secret failure',
        );
      });
      throw err;
    }
    logger.info({ tenant_id: tenantId, key_prefix: keyPrefix(apiKey) }, 'tenant created');
    return { tenant, apiKey, signingSecret, created: true };
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
    createTenant,
    getTenant,
    listTenants: () => tenants.selectTenants(),
    updateTenant,
    createApiKey,
    revokeApiKey,
    listApiKeys,
  };
}
