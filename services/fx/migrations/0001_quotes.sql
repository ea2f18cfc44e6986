-- FX quotes (docs/api/fx-and-confidence.md "FX quotes", proto payout.fx.v1.Quote). A quote fixes a
-- rate until expires_at and is consumed exactly once, at execute, by one consumer (the transaction
-- id), so a retried confirm by the same consumer can succeed while any other consumer is refused.
-- Money is integer minor units (bigint); rates are exact numerics, never floats
-- (docs/architecture.md "Money and ids").
CREATE TABLE quotes (
  id text PRIMARY KEY CHECK (id ~ '^quo_[0-9A-HJKMNP-TV-Z]{26}$'),
  tenant_id text NOT NULL,
  source_currency text NOT NULL CHECK (source_currency ~ '^[A-Z]{3}$'),
  target_currency text NOT NULL CHECK (target_currency ~ '^[A-Z]{3}$'),
  -- Units of target currency per one unit of source currency, after the spread.
  rate numeric NOT NULL CHECK (rate > 0),
  mid_rate numeric NOT NULL CHECK (mid_rate > 0),
  spread_bps integer NOT NULL CHECK (spread_bps >= 0 AND spread_bps < 10000),
  -- What the payer pays, rounded up to the source currency's minor units.
  source_minor bigint NOT NULL CHECK (source_minor > 0),
  -- What the merchant receives.
  target_minor bigint NOT NULL CHECK (target_minor > 0),
  -- Fee on top, in the source currency.
  fee_minor bigint NOT NULL DEFAULT 0 CHECK (fee_minor >= 0),
  -- 'expired' is normally derived at read time (open and past expires_at); a sweeper may store it.
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'confirmed', 'expired')),
  consumer_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  CONSTRAINT quotes_expiry_after_creation CHECK (expires_at > created_at),
  CONSTRAINT quotes_confirmed_has_consumer
    CHECK ((status = 'confirmed') = (consumer_id IS NOT NULL AND confirmed_at IS NOT NULL)),
  CONSTRAINT quotes_distinct_currencies CHECK (source_currency <> target_currency)
);

-- Every read is scoped to the tenant: GetQuote and ConfirmQuote look up (tenant_id, id).
CREATE INDEX quotes_tenant_id_id_idx ON quotes (tenant_id, id);
