// Creating a tenant with its first API key and its webhook signing secret, and the sandbox's
// idempotent bootstrap of a given tenant id, key and secret.
import type { Client } from '@connectrpc/connect';
import { newId } from '@qr-payout/platform/ids';
import type { Logger } from '@qr-payout/platform/log';
import type { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { invalidTenantInput } from './errors';
import { checkBootstrapInput, normalizeName, normalizeRateLimit } from './input';
import { generateApiKey, hashApiKey, keyPrefix } from './keys';
import type * as store from './store';

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

export interface CallOptions {
  signal?: AbortSignal;
}

/** The part of the webhook service's gRPC client the tenant service uses. */
export type SigningSecretClient = Pick<Client<typeof WebhookService>, 'rotateSigningSecret'>;

export interface TenantCreationDeps {
  tenants: store.PooledTenantStore;
  webhook: SigningSecretClient;
  logger: Logger;
  /** The tenant of an id, or tenant_not_found. */
  getTenant(tenantId: string): Promise<store.TenantRow>;
}

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === UNIQUE_VIOLATION && (constraint === undefined || e.constraint === constraint);
}

/** `createTenant` of the tenant service. */
export function createTenantCreation(
  deps: TenantCreationDeps,
): (input: CreateTenantInput, opts?: CallOptions) => Promise<CreatedTenant> {
  const { tenants, webhook, logger, getTenant } = deps;

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

  /** Inserts the tenant and its first key in one transaction; the key is the given one or a new one. */
  async function insertTenantWithKey(
    row: { id: string; name: string; rateLimitPerMinute: number | null },
    givenKey: string | undefined,
  ): Promise<{ tenant: store.TenantRow; apiKey: string }> {
    const tenantId = row.id;
    const generated = givenKey ? undefined : generateApiKey();
    const apiKey = givenKey ?? generated!.key;
    // The tenant and its first key commit together.
    const tenant = await tenants.inTransaction(async (inTransaction) => {
      const tenant = await inTransaction.insertTenant(row);
      const inserted = await inTransaction.insertApiKey({
        prefix: generated?.prefix ?? keyPrefix(apiKey),
        keyHash: hashApiKey(apiKey),
        tenantId,
      });
      if (!inserted) {
        throw invalidTenantInput('api_key', 'api_key (or its first 12 characters) is already in use');
      }
      return tenant;
    });
    return { tenant, apiKey };
  }

  /** The new tenant's signing secret; when it cannot be set, the tenant is removed again. */
  async function firstSigningSecret(tenantId: string, input: CreateTenantInput, opts?: CallOptions) {
    try {
      return await setSigningSecret(tenantId, input.signingSecret ?? '', opts);
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
  }

  return async function createTenant(input: CreateTenantInput, opts?: CallOptions): Promise<CreatedTenant> {
    const name = normalizeName(input.name);
    const rateLimitPerMinute = normalizeRateLimit(input.rateLimitPerMinute);
    checkBootstrapInput(input);
    if (input.tenantId) {
      const existing = await tenants.findTenant(input.tenantId);
      if (existing) return ensureExistingTenant(existing, input, opts);
    }
    const tenantId = input.tenantId || newId('ten');
    let made: { tenant: store.TenantRow; apiKey: string };
    try {
      made = await insertTenantWithKey({ id: tenantId, name, rateLimitPerMinute }, input.apiKey);
    } catch (err) {
      // Two bootstraps racing on the same given id: the loser returns what the winner made.
      if (input.tenantId && isUniqueViolation(err, 'tenants_pkey')) {
        return ensureExistingTenant(await getTenant(input.tenantId), input, opts);
      }
      throw err;
    }
    const signingSecret = await firstSigningSecret(tenantId, input, opts);
    logger.info({ tenant_id: tenantId, key_prefix: keyPrefix(made.apiKey) }, 'tenant created');
    return { ...made, signingSecret, created: true };
  };
}
