import type { Pool } from 'pg';

// All SQL of signing secrets. Tables live in the service's schema (search_path of the pool).

export interface SigningSecretStore {
  /**
   * Creates the tenant's sealed secret, or replaces it and stamps rotated_at. With a grace period
   * the replaced secret is kept (sealed) and keeps signing until `previous_expires_at`
   * (secret rotation, docs/api/webhooks.md "The signature"); without one it is dropped at once.
   * Returns when the previous secret expires, if kept.
   */
  upsert(tenantId: string, sealed: Buffer, graceMs: number): Promise<{ previousExpiresAt: Date | null }>;
  /** The tenant's sealed secret, or undefined when it has none. */
  findSealed(tenantId: string): Promise<Buffer | undefined>;
}

export function createSigningSecretStore(pool: Pool): SigningSecretStore {
  return {
    async upsert(tenantId, sealed, graceMs) {
      const { rows } = await pool.query<{ previous_expires_at: Date | null }>(
        `INSERT INTO signing_secrets AS s (tenant_id, secret_sealed) VALUES ($1, $2)
         ON CONFLICT (tenant_id) DO UPDATE SET
           secret_sealed = EXCLUDED.secret_sealed,
           previous_secret_sealed = CASE WHEN $3::double precision > 0 THEN s.secret_sealed END,
           previous_expires_at = CASE WHEN $3::double precision > 0
             THEN now() + make_interval(secs => $3::double precision / 1000) END,
           rotated_at = now()
         RETURNING previous_expires_at`,
        [tenantId, sealed, graceMs],
      );
      return { previousExpiresAt: rows[0]?.previous_expires_at ?? null };
    },

    async findSealed(tenantId) {
      const { rows } = await pool.query<{ secret_sealed: Buffer }>(
        'SELECT secret_sealed FROM signing_secrets WHERE tenant_id = $1',
        [tenantId],
      );
      return rows[0]?.secret_sealed;
    },
  };
}
