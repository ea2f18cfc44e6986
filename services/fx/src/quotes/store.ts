import type pg from 'pg';

export type StoredQuoteStatus = 'open' | 'confirmed' | 'expired';

/**
 * A row of fx.quotes as the store reads it (int8 and numeric columns arrive as strings), plus
 * `expired`, computed by the database clock so every replica agrees on it.
 */
type QuoteRow = {
  id: string;
  tenant_id: string;
  source_currency: string;
  target_currency: string;
  rate: string;
  mid_rate: string;
  spread_bps: number;
  source_minor: string;
  target_minor: string;
  fee_minor: string;
  status: StoredQuoteStatus;
  consumer_id: string | null;
  created_at: Date;
  expires_at: Date;
  confirmed_at: Date | null;
  expired: boolean;
};

export type NewQuote = {
  id: string;
  tenantId: string;
  sourceCurrency: string;
  targetCurrency: string;
  /** Exact decimal strings. */
  rate: string;
  midRate: string;
  spreadBps: number;
  sourceMinor: bigint;
  targetMinor: bigint;
  feeMinor: bigint;
  /** Lifetime from the database's now(). */
  ttlMs: number;
};

/** A stored quote as the service sees it: what insertQuote was given, and what the database decided. */
export type StoredQuote = Omit<NewQuote, 'ttlMs'> & {
  status: StoredQuoteStatus;
  consumerId: string | null;
  createdAt: Date;
  expiresAt: Date;
  confirmedAt: Date | null;
  /** Past expiresAt by the database clock (or stored as expired by a sweeper). */
  expired: boolean;
};

const QUOTE_COLUMNS = `id, tenant_id, source_currency, target_currency, rate::text AS rate,
  mid_rate::text AS mid_rate, spread_bps, source_minor, target_minor, fee_minor, status, consumer_id,
  created_at, expires_at, confirmed_at,
  (status = 'expired' OR (status = 'open' AND expires_at <= now())) AS expired`;

function toStoredQuote(row: QuoteRow): StoredQuote {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    sourceCurrency: row.source_currency,
    targetCurrency: row.target_currency,
    rate: row.rate,
    midRate: row.mid_rate,
    spreadBps: row.spread_bps,
    sourceMinor: BigInt(row.source_minor),
    targetMinor: BigInt(row.target_minor),
    feeMinor: BigInt(row.fee_minor),
    status: row.status,
    consumerId: row.consumer_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    confirmedAt: row.confirmed_at,
    expired: row.expired,
  };
}

export interface QuoteStore {
  /** Stores an open quote expiring ttlMs after the database's now(). */
  insertQuote(quote: NewQuote): Promise<StoredQuote>;
  /** The tenant's quote with this id; undefined for an unknown id or another tenant's. */
  findQuote(tenantId: string, quoteId: string): Promise<StoredQuote | undefined>;
  /**
   * Marks the quote confirmed by `consumerId` if it is the tenant's, open and not expired, in one
   * statement (a row lock serialises racing confirms); undefined when nothing matched.
   */
  confirmOpenQuote(tenantId: string, quoteId: string, consumerId: string): Promise<StoredQuote | undefined>;
}

export function createQuoteStore(pool: pg.Pool): QuoteStore {
  return {
    async insertQuote(quote) {
      const { rows } = await pool.query<QuoteRow>(
        `INSERT INTO quotes (id, tenant_id, source_currency, target_currency, rate, mid_rate, spread_bps,
           source_minor, target_minor, fee_minor, expires_at)
         VALUES ($1, $2, $3, $4, $5::numeric, $6::numeric, $7, $8, $9, $10,
           now() + $11::integer * interval '1 millisecond')
         RETURNING ${QUOTE_COLUMNS}`,
        [
          quote.id,
          quote.tenantId,
          quote.sourceCurrency,
          quote.targetCurrency,
          quote.rate,
          quote.midRate,
          quote.spreadBps,
          quote.sourceMinor.toString(),
          quote.targetMinor.toString(),
          quote.feeMinor.toString(),
          quote.ttlMs,
        ],
      );
      const row = rows[0];
      if (!row) throw new Error('INSERT ... RETURNING returned no row');
      return toStoredQuote(row);
    },

    async findQuote(tenantId, quoteId) {
      const { rows } = await pool.query<QuoteRow>(
        `SELECT ${QUOTE_COLUMNS} FROM quotes WHERE tenant_id = $1 AND id = $2`,
        [tenantId, quoteId],
      );
      const row = rows[0];
      return row && toStoredQuote(row);
    },

    async confirmOpenQuote(tenantId, quoteId, consumerId) {
      const { rows } = await pool.query<QuoteRow>(
        `UPDATE quotes SET status = 'confirmed', consumer_id = $3, confirmed_at = now()
          WHERE tenant_id = $1 AND id = $2 AND status = 'open' AND expires_at > now()
          RETURNING ${QUOTE_COLUMNS}`,
        [tenantId, quoteId, consumerId],
      );
      const row = rows[0];
      return row && toStoredQuote(row);
    },
  };
}
