// The webhook prune statement (docs/operators.md "Retention"), run by a platform prune job.

/**
 * Finished deliveries (delivered, failed, exhausted: the terminal states of
 * deliveries/state.ts) whose last change is older than $2 milliseconds
 * (WEBHOOK_DELIVERY_RETENTION_MS), oldest first, at most $1; their attempts go with them (ON DELETE
 * CASCADE). A pending or delivering one is never touched, and one replayed meanwhile is no longer
 * finished when the row lock re-checks it. The status list is the predicate of
 * deliveries_finished_idx, written out so the planner uses that index.
 */
export const PRUNE_FINISHED_DELIVERIES = `
  DELETE FROM deliveries WHERE id IN (
    SELECT id FROM deliveries
     WHERE status IN ('delivered', 'failed', 'exhausted')
       AND updated_at < now() - $2::double precision * interval '1 millisecond'
     ORDER BY updated_at
     LIMIT $1 FOR UPDATE SKIP LOCKED
  )`;
