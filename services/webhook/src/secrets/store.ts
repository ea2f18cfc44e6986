import type { Pool, PoolClient } from 'pg';

// All SQL of signing secrets. Tables live in the service's schema (search_path of the pool).

type Db = Pool | PoolClient;

/** Creates the tenant's sealed secret, or replaces it and stamps rotated_at. */
export async function upsertSigningSecret(db: Db, tenantId: string, sealed: Buffer): Promise<void> {
  await db.query(
    `INSERT INTO signing_secrets (tenant_id, secret_sealed) VALUES ($1, $2)
     ON CONFLICT (tenant_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, rotated_at = now()`,
    [tenantId, sealed],
  );
}

/** The tenant's sealed secret, or undefined when it has none. */
export async function findSealedSigningSecret(db: Db, tenantId: string): Promise<Buffer | undefined> {
  const { rows } = await db.query<{ secret_sealed: Buffer }>(
    'SELECT secret_sealed FROM signing_secrets WHERE tenant_id = $1',
    [tenantId],
  );
  return rows[0]?.secret_sealed;
}
