-- Retention (docs/operators.md "Retention"): the delivery prune job deletes finished deliveries
-- (delivered, failed, exhausted; their attempts go with them, ON DELETE CASCADE) whose last change
-- is older than WEBHOOK_DELIVERY_RETENTION_MS, oldest first. A replay moves a delivery back to
-- pending and out of this index.
CREATE INDEX deliveries_finished_idx ON deliveries (updated_at)
  WHERE status IN ('delivered', 'failed', 'exhausted');
