-- The attempt log of a delivery is bounded (docs/api/webhooks.md "Seeing what happened"): a replay
-- keeps the latest 100 attempts of the earlier series and counts the ones it drops here. Before,
-- every replay added attempts without end, until one delivery's log no longer fit an answer.
ALTER TABLE deliveries ADD COLUMN earlier_attempts integer NOT NULL DEFAULT 0 CHECK (earlier_attempts >= 0);
