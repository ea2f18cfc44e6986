-- ListTransactions (GET /v1/transactions): a tenant's transactions newest first, keyset-paged on
-- (created_at, id). Both columns are immutable, so the position of a row never moves between
-- pages; status is filtered during the index scan rather than indexed, since it changes.
CREATE INDEX transactions_tenant_created_idx ON transactions (tenant_id, created_at DESC, id DESC);
