-- Nothing stuck: a transaction still pending or processing past its rail's settlement
-- horizon (SETTLEMENT_HORIZON_<RAIL>_MS, counted from created_at) is looked up at the partner and
-- settled, failed, or reported to operators (README "Transaction state machine").

ALTER TABLE transactions
  -- When the polling worker first found, past the horizon, that the partner could not settle it
  -- (unreachable, still in process, or lost a payout it accepted). Kept once set: history.
  ADD COLUMN stuck_since timestamptz,
  -- When the worker last claimed it to ask the partner (payoutctl transactions stuck shows it).
  ADD COLUMN last_polled_at timestamptz;

-- ListStuckTransactions and the payout.transactions.stuck gauge scan live transactions oldest
-- first; live ones are few next to the terminal ones, so the index is partial.
CREATE INDEX transactions_live_created_idx ON transactions (created_at, id)
  WHERE status IN ('pending', 'processing');
