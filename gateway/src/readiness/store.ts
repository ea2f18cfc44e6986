import type { Pool } from 'pg';

export interface ReadinessStore {
  /** Resolves when the database answers a trivial query (readiness probe). */
  pingDatabase(): Promise<void>;
}

export function createReadinessStore(pool: Pool): ReadinessStore {
  return {
    async pingDatabase() {
      await pool.query('SELECT 1');
    },
  };
}
