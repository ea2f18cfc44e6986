-- POST /v1/pay (docs/api/idempotency.md "Execute and pay", "The Idempotency-Key"): the instruction
-- a pay's Idempotency-Key resolved to. Payout's idempotency_keys table guarantees one transaction
-- per key; this one guarantees one instruction per key, so a pay retried after the gateway's Redis
-- record is gone executes the instruction it made the first time instead of resolving the QR (and
-- quoting FX) again.
CREATE TABLE pay_idempotency_keys (
  tenant_id text NOT NULL,
  idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  -- SHA-256 of the canonical request: the same key with another body is IdempotencyConflict.
  request_fingerprint text NOT NULL,
  instruction_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- docs/api/idempotency.md "The Idempotency-Key": 24 hours, after which the key may be reused with
  -- any body (the row is replaced).
  expires_at timestamptz NOT NULL,
  CONSTRAINT pay_idempotency_keys_pkey PRIMARY KEY (tenant_id, idempotency_key),
  CONSTRAINT pay_idempotency_keys_expiry_after_creation CHECK (expires_at > created_at)
);

CREATE INDEX pay_idempotency_keys_expires_at_idx ON pay_idempotency_keys (expires_at);
