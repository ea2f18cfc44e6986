// SQL of stuck transactions (README "Transaction state machine"): live (pending or processing) and
// past their rail's settlement horizon, or already reported stuck by the polling worker. Derived
// from created_at as well as stuck_since, so a transaction is listed from the moment its horizon
// passes, even before the worker's next look at it (up to POLL_BACKOFF_MAX_MS later) and even with
// no worker running. Horizons come from config, passed in as arrays: a rail missing from them (not
// served here) has horizon 0. Index transactions_live_created_idx (migration 0005) serves both.
import type pg from 'pg';
import type { SettlementHorizons } from './horizons';

/** A live transaction past its horizon or reported stuck, as ListStuckTransactions shows it. */
export type ListedStuckTransaction = {
  id: string;
  tenantId: string;
  status: 'pending' | 'processing';
  rail: string;
  createdAt: Date;
  /** Milliseconds since createdAt by the database's clock. */
  ageMs: number;
  horizonMs: number;
  partnerPayoutId: string | null;
  lastPolledAt: Date | null;
  stuckSince: Date | null;
};

type StuckTransactionRow = {
  id: string;
  tenant_id: string;
  status: 'pending' | 'processing';
  rail: string;
  created_at: Date;
  age_ms: number;
  horizon_ms: number;
  partner_payout_id: string | null;
  last_polled_at: Date | null;
  stuck_since: Date | null;
};

function toListedStuckTransaction(row: StuckTransactionRow): ListedStuckTransaction {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    status: row.status,
    rail: row.rail,
    createdAt: row.created_at,
    ageMs: row.age_ms,
    horizonMs: row.horizon_ms,
    partnerPayoutId: row.partner_payout_id,
    lastPolledAt: row.last_polled_at,
    stuckSince: row.stuck_since,
  };
}

export interface StuckStore {
  /** Oldest first (created_at, id); `tenantId` undefined for every tenant. */
  listStuck(
    horizons: SettlementHorizons,
    opts: { tenantId?: string; limit: number },
  ): Promise<ListedStuckTransaction[]>;
  /** How many are stuck per rail (rails with none are absent). */
  countStuckByRail(horizons: SettlementHorizons): Promise<Map<string, number>>;
}

const STUCK_FROM = `transactions t
  LEFT JOIN unnest($1::text[], $2::float8[]) AS h(rail, horizon_ms) ON h.rail = t.rail
  WHERE t.status IN ('pending', 'processing')
    AND (t.stuck_since IS NOT NULL
         OR t.created_at <= now() - COALESCE(h.horizon_ms, 0) * interval '1 millisecond')`;

function horizonArrays(horizons: SettlementHorizons): [string[], number[]] {
  const entries = Object.entries(horizons);
  return [entries.map(([rail]) => rail), entries.map(([, ms]) => ms)];
}

export function createStuckStore(pool: pg.Pool): StuckStore {
  return {
    async listStuck(horizons, { tenantId, limit }) {
      const [rails, ms] = horizonArrays(horizons);
      const { rows } = await pool.query<StuckTransactionRow>(
        `SELECT t.id, t.tenant_id, t.status, t.rail, t.created_at, t.partner_payout_id,
                t.last_polled_at, t.stuck_since, COALESCE(h.horizon_ms, 0) AS horizon_ms,
                (extract(epoch FROM now() - t.created_at) * 1000)::float8 AS age_ms
           FROM ${STUCK_FROM}
            AND ($3::text IS NULL OR t.tenant_id = $3)
          ORDER BY t.created_at, t.id
          LIMIT $4`,
        [rails, ms, tenantId ?? null, limit],
      );
      return rows.map(toListedStuckTransaction);
    },

    async countStuckByRail(horizons) {
      const [rails, ms] = horizonArrays(horizons);
      const { rows } = await pool.query<{ rail: string; stuck: number }>(
        `SELECT t.rail, count(*)::int AS stuck FROM ${STUCK_FROM} GROUP BY t.rail`,
        [rails, ms],
      );
      return new Map(rows.map((row) => [row.rail, row.stuck]));
    },
  };
}
