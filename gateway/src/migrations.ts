import path from 'node:path';
import { migrate } from '@qr-payout/platform/db';
import type { Logger } from '@qr-payout/platform/log';
import type { Pool } from 'pg';

/** The gateway's migrations (tenants, API keys), in its own schema. */
export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export async function migrateGateway(pool: Pool, schema: string, logger?: Logger): Promise<string[]> {
  const result = await migrate(pool, { schema, dir: MIGRATIONS_DIR, ...(logger ? { logger } : {}) });
  return result.applied;
}
