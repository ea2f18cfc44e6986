-- The payer's document (docs/payer-identity.md): payer_tax_id is the payer's own identifier, these
-- say which country issued it and what it is. NULL: not declared (rows before this migration too,
-- which were sent as the merchant country's tax id and stay as they were).
ALTER TABLE transactions
  ADD COLUMN payer_country text CHECK (payer_country ~ '^[A-Z]{2}$'),
  ADD COLUMN payer_id_type text CHECK (payer_id_type IN ('tax_id', 'national_id', 'passport')),
  -- A declared type names the country that issued it.
  ADD CONSTRAINT transactions_payer_id_type_has_country
    CHECK (payer_id_type IS NULL OR payer_country IS NOT NULL);
