-- Charges paid once: a single-use QR's charge (dynamic Pix: its location and txid,
-- `instructions/charge-key.ts`) is remembered by the instruction made from it and copied to the
-- instruction's transaction. At most one live payment of a charge exists, whatever the tenant or
-- the Idempotency-Key: a second one fails its INSERT on the index below, and execute answers
-- ChargeAlreadyPaid. A payment that failed leaves the index, so the charge can be paid again.
-- Rows of reusable (static) QRs keep NULL and are outside the index.

ALTER TABLE instructions
  ADD COLUMN charge_key text CHECK (length(charge_key) BETWEEN 1 AND 300);

ALTER TABLE transactions
  ADD COLUMN charge_key text CHECK (length(charge_key) BETWEEN 1 AND 300);

-- The name is matched by execution/store.ts to tell this refusal from a duplicate key.
CREATE UNIQUE INDEX transactions_live_charge_key ON transactions (charge_key)
  WHERE charge_key IS NOT NULL AND status <> 'failed';
