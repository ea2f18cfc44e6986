import type { Pool } from 'pg';

/** Resolves when the database answers a trivial query (readiness probe). */
export async function pingDatabase(pool: Pool): Promise<void> {
  await pool.query('SELECT 1');
}
