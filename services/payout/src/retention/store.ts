// The payout prune statements (docs/operators.md "Retention"), run by the platform's prune jobs:
// each deletes at most $1 rows, oldest first over an index on its age column, skipping rows another
// transaction holds. Transactions and instructions are the financial record and are never pruned.

/**
 * Published outbox events whose publication is older than $2 milliseconds (OUTBOX_RETENTION_MS);
 * an unpublished event is the relay's work and is never touched. Index: outbox_events_published_idx.
 */
export const PRUNE_PUBLISHED_OUTBOX_EVENTS = `
  DELETE FROM outbox_events WHERE id IN (
    SELECT id FROM outbox_events
     WHERE published_at IS NOT NULL
       AND published_at < now() - $2::double precision * interval '1 millisecond'
     ORDER BY published_at
     LIMIT $1 FOR UPDATE SKIP LOCKED
  )`;

/**
 * Idempotency keys past their 24 hours (docs/api/idempotency.md "The Idempotency-Key"). Deleting
 * them is tidiness, not correctness: execute already takes an expired key over. A key being taken
 * over right now is locked and skipped. Index: idempotency_keys_expires_at_idx.
 */
export const PRUNE_EXPIRED_IDEMPOTENCY_KEYS = `
  DELETE FROM idempotency_keys WHERE (tenant_id, key) IN (
    SELECT tenant_id, key FROM idempotency_keys
     WHERE expires_at <= now()
     ORDER BY expires_at
     LIMIT $1 FOR UPDATE SKIP LOCKED
  )`;
