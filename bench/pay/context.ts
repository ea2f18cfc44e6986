// What the pay bench's parts share: one system, one tenant, the pay body and a small pool for the bench's own queries (./index.ts makes it once; ./open.ts and ./closed.ts use it).
import type pg from 'pg';
import type { startSystem } from '../../test-e2e/harness';
import { postmasterPidOf } from '../shared/cpu';

export interface PayBenchContext {
  system: Awaited<ReturnType<typeof startSystem>>;
  db: pg.Pool;
  tenantId: string;
  gatewayUrl: string;
  apiKey: string;
  /** The pay body without its Idempotency-Key. */
  body: string;
  /** The postmaster of the system's cluster, so only its processes count as PostgreSQL. */
  postmasterPid: number | undefined;
  /** sampleCpu's scope: that cluster, and the run's database apart. */
  cpuScope: { postmasterPid?: number; database: string };
}

/** A tenant at `rateLimitPerMinute` on `system`, and the context of pays made for it with `body`. */
export async function createPayBenchContext(
  system: PayBenchContext['system'],
  db: pg.Pool,
  opts: { tenantName: string; rateLimitPerMinute: number; body: string },
): Promise<PayBenchContext> {
  const tenant = await system.createTenant(opts.tenantName, opts.rateLimitPerMinute);
  const postmasterPid = await postmasterPidOf(system.databaseUrl);
  return {
    system,
    db,
    tenantId: tenant.tenantId,
    gatewayUrl: system.gatewayUrl,
    apiKey: tenant.apiKey,
    body: opts.body,
    postmasterPid,
    cpuScope: { postmasterPid, database: new URL(system.databaseUrl).pathname.slice(1) },
  };
}

// PostgreSQL reports a backend's table counters when it has been idle ~10 s, or when it exits.
export const STATS_FLUSH_MS = 12_000;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Transactions the tenant has made so far: one per pay taken. */
export async function countTransactions(ctx: PayBenchContext): Promise<number> {
  const { rows } = await ctx.db.query<{ n: string }>(
    'SELECT count(*) AS n FROM payout.transactions WHERE tenant_id = $1',
    [ctx.tenantId],
  );
  return Number(rows[0]?.n ?? 0);
}
