-- Retention (docs/operators.md "Retention"): the outbox prune job deletes published events oldest
-- first by published_at. Unpublished rows stay outside the index (the relay has its own).
CREATE INDEX outbox_events_published_idx ON outbox_events (published_at)
  WHERE published_at IS NOT NULL;
