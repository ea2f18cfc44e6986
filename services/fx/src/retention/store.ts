// The fx prune statement (docs/operators.md "Retention"), run by a platform prune job.

/**
 * Quotes, open or confirmed, whose expiry is older than $2 milliseconds (QUOTE_RETENTION_MS),
 * oldest first, at most $1. Safe for payout: an instruction keeps its own snapshot of the quote
 * (instructions.quote_id and quote), and payout confirms a quote only while executing, long before
 * the retention ends. Index: quotes_expires_at_idx.
 */
export const PRUNE_EXPIRED_QUOTES = `
  DELETE FROM quotes WHERE id IN (
    SELECT id FROM quotes
     WHERE expires_at < now() - $2::double precision * interval '1 millisecond'
     ORDER BY expires_at
     LIMIT $1 FOR UPDATE SKIP LOCKED
  )`;
