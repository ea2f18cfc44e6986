-- A transaction's state history (docs/api/resources.md "State history"): when it entered
-- `processing`, written by the UPDATE that moves it there (pending to processing only). Its other
-- two times need no column: `pending` is created_at, and a terminal transaction never changes
-- again, so its updated_at is when it settled. NULL for a transaction that never was processing;
-- rows that were processing before this column existed show their last change instead (the
-- history's one reader, transactions/transaction-message.ts, says so). Adding a nullable column
-- without a default rewrites nothing, so the migration is instant on a large table.

ALTER TABLE transactions
  ADD COLUMN processing_at timestamptz;
