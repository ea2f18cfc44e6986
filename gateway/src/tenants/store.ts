import { withTransaction } from '@qr-payout/platform/db';
import type { Pool, PoolClient } from 'pg';

// All SQL of tenants and API keys. Tables live in the gateway's schema (search_path of the pool).

/** What a store runs its statements on: the pool, or the client of its own open transaction. */
type Queryable = Pool | PoolClient;

export interface TenantRow {
  id: string;
  name: string;
  /** null: the gateway's default applies. */
  rateLimitPerMinute: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ApiKeyRow {
  prefix: string;
  tenantId: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface KeyOwnerRow {
  prefix: string;
  tenantId: string;
  revokedAt: Date | null;
  rateLimitPerMinute: number | null;
}

interface TenantRecord {
  id: string;
  name: string;
  rate_limit_per_minute: number | null;
  created_at: Date;
  updated_at: Date;
}

interface ApiKeyRecord {
  prefix: string;
  tenant_id: string;
  created_at: Date;
  revoked_at: Date | null;
}

const TENANT_COLUMNS = 'id, name, rate_limit_per_minute, created_at, updated_at';
const API_KEY_COLUMNS = 'prefix, tenant_id, created_at, revoked_at';

function toTenant(r: TenantRecord): TenantRow {
  return {
    id: r.id,
    name: r.name,
    rateLimitPerMinute: r.rate_limit_per_minute,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toApiKey(r: ApiKeyRecord): ApiKeyRow {
  return { prefix: r.prefix, tenantId: r.tenant_id, createdAt: r.created_at, revokedAt: r.revoked_at };
}

export interface TenantStore {
  insertTenant(t: { id: string; name: string; rateLimitPerMinute: number | null }): Promise<TenantRow>;
  findTenant(id: string): Promise<TenantRow | undefined>;
  selectTenants(): Promise<TenantRow[]>;
  setTenantRateLimit(id: string, rateLimitPerMinute: number | null): Promise<TenantRow | undefined>;
  deleteTenantWithKeys(id: string): Promise<void>;
  /** Inserts a key; undefined when its prefix or hash is already stored. */
  insertApiKey(k: { prefix: string; keyHash: Buffer; tenantId: string }): Promise<ApiKeyRow | undefined>;
  findApiKeyByHash(keyHash: Buffer): Promise<ApiKeyRow | undefined>;
  /** The key's owner and its rate-limit override, found through the unique index on key_hash. */
  findKeyOwnerByHash(keyHash: Buffer): Promise<KeyOwnerRow | undefined>;
  /** Revokes a key (a second revocation keeps the first time); undefined for an unknown prefix. */
  markApiKeyRevoked(prefix: string): Promise<ApiKeyRow | undefined>;
  selectApiKeys(tenantId: string): Promise<ApiKeyRow[]>;
}

export interface PooledTenantStore extends TenantStore {
  /**
   * Runs `work` in one database transaction, on a store bound to it: what it writes commits
   * together (a tenant and its first key) or not at all.
   */
  inTransaction<T>(work: (store: TenantStore) => Promise<T>): Promise<T>;
}

export function createTenantStore(pool: Pool): PooledTenantStore {
  return {
    ...tenantStoreOn(pool),
    inTransaction: (work) => withTransaction(pool, (client) => work(tenantStoreOn(client))),
  };
}

function tenantStoreOn(db: Queryable): TenantStore {
  return {
    async insertTenant(t) {
      const res = await db.query<TenantRecord>(
        `INSERT INTO tenants (id, name, rate_limit_per_minute) VALUES ($1, $2, $3) RETURNING ${TENANT_COLUMNS}`,
        [t.id, t.name, t.rateLimitPerMinute],
      );
      return toTenant(res.rows[0]!);
    },

    async findTenant(id) {
      const res = await db.query<TenantRecord>(`SELECT ${TENANT_COLUMNS} FROM tenants WHERE id = $1`, [id]);
      return res.rows[0] && toTenant(res.rows[0]);
    },

    async selectTenants() {
      const res = await db.query<TenantRecord>(
        `SELECT ${TENANT_COLUMNS} FROM tenants ORDER BY created_at, id`,
      );
      return res.rows.map(toTenant);
    },

    async setTenantRateLimit(id, rateLimitPerMinute) {
      const res = await db.query<TenantRecord>(
        `UPDATE tenants SET rate_limit_per_minute = $2, updated_at = now() WHERE id = $1 RETURNING ${TENANT_COLUMNS}`,
        [id, rateLimitPerMinute],
      );
      return res.rows[0] && toTenant(res.rows[0]);
    },

    async deleteTenantWithKeys(id) {
      await db.query('DELETE FROM api_keys WHERE tenant_id = $1', [id]);
      await db.query('DELETE FROM tenants WHERE id = $1', [id]);
    },

    async insertApiKey(k) {
      const res = await db.query<ApiKeyRecord>(
        `INSERT INTO api_keys (prefix, key_hash, tenant_id) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING ${API_KEY_COLUMNS}`,
        [k.prefix, k.keyHash, k.tenantId],
      );
      return res.rows[0] && toApiKey(res.rows[0]);
    },

    async findApiKeyByHash(keyHash) {
      const res = await db.query<ApiKeyRecord>(
        `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`,
        [keyHash],
      );
      return res.rows[0] && toApiKey(res.rows[0]);
    },

    async findKeyOwnerByHash(keyHash) {
      const res = await db.query<{
        prefix: string;
        tenant_id: string;
        revoked_at: Date | null;
        rate_limit_per_minute: number | null;
      }>(
        `SELECT k.prefix, k.tenant_id, k.revoked_at, t.rate_limit_per_minute
           FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
          WHERE k.key_hash = $1`,
        [keyHash],
      );
      const r = res.rows[0];
      return (
        r && {
          prefix: r.prefix,
          tenantId: r.tenant_id,
          revokedAt: r.revoked_at,
          rateLimitPerMinute: r.rate_limit_per_minute,
        }
      );
    },

    async markApiKeyRevoked(prefix) {
      const res = await db.query<ApiKeyRecord>(
        `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE prefix = $1 RETURNING ${API_KEY_COLUMNS}`,
        [prefix],
      );
      return res.rows[0] && toApiKey(res.rows[0]);
    },

    async selectApiKeys(tenantId) {
      const res = await db.query<ApiKeyRecord>(
        `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, prefix`,
        [tenantId],
      );
      return res.rows.map(toApiKey);
    },
  };
}
