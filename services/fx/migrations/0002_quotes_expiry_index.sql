-- Retention (docs/operators.md "Retention"): the quote prune job deletes quotes, open or confirmed,
-- whose expiry is older than QUOTE_RETENTION_MS, oldest first.
CREATE INDEX quotes_expires_at_idx ON quotes (expires_at);
