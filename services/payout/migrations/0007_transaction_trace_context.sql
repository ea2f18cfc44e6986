-- One pay, one trace (docs/architecture.md "Traces"): the W3C trace context of the pay (or execute)
-- that created the transaction, so that a settlement written later, by a partner callback or the
-- polling worker, stores its outbox event under the pay's trace, not the callback's or the poll's.
-- Written by the insert that creates the row; NULL when telemetry is off (nothing was traced).

ALTER TABLE transactions
  ADD COLUMN traceparent text,
  ADD COLUMN tracestate text;
