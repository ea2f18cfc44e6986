-- Replays of one delivery are at least WEBHOOK_REPLAY_MIN_INTERVAL_MS apart (docs/api/webhooks.md
-- "Webhook deliveries", Replay). The time of the last replay lives on the row, so the replay's one
-- guarded UPDATE enforces it on every replica alike; NULL: never replayed.
ALTER TABLE deliveries ADD COLUMN last_replayed_at timestamptz;
