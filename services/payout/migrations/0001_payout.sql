-- Schema payout (docs/architecture.md "Services and what each owns", "Transactions", "Idempotency",
-- "The outbox and Kafka"): instructions, transactions, durable idempotency keys and the
-- transactional outbox. Money is integer minor units (bigint), never floats (docs/architecture.md
-- "Money and ids").

-- A resolved payment instruction (docs/api/resources.md "Instructions (resolve)", proto
-- payout.payout.v1.Instruction).
CREATE TABLE instructions (
  id text PRIMARY KEY CHECK (id ~ '^ins_[0-9A-HJKMNP-TV-Z]{26}$'),
  tenant_id text NOT NULL,
  scheme_id text NOT NULL,
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  rail text NOT NULL,
  -- payout.decoder.v1.DecodedQr in protobuf JSON: what the decoder read from the QR.
  decoded jsonb NOT NULL,
  -- What the merchant receives.
  amount_currency text NOT NULL CHECK (amount_currency ~ '^[A-Z]{3}$'),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  -- What the payer pays: the quote's source amount, or the amount when there is no quote.
  pay_currency text NOT NULL CHECK (pay_currency ~ '^[A-Z]{3}$'),
  pay_amount_minor bigint NOT NULL CHECK (pay_amount_minor > 0),
  -- The fx quote (payout.fx.v1.Quote in protobuf JSON) when the payer pays in another currency;
  -- fx owns the quote, this is the snapshot the instruction was made with.
  quote_id text,
  quote jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT instructions_quote_complete CHECK ((quote_id IS NULL) = (quote IS NULL)),
  CONSTRAINT instructions_quote_iff_other_currency
    CHECK ((quote_id IS NULL) = (pay_currency = amount_currency)),
  -- Target of the transactions' tenant-consistent foreign key.
  CONSTRAINT instructions_tenant_id_key UNIQUE (tenant_id, id)
);

-- A payout attempt of one instruction (docs/api/resources.md "Transactions", docs/architecture.md
-- "Transactions"). One per instruction: a second execute with another key is
-- InstructionAlreadyExecuted.
CREATE TABLE transactions (
  id text PRIMARY KEY CHECK (id ~ '^txn_[0-9A-HJKMNP-TV-Z]{26}$'),
  tenant_id text NOT NULL,
  instruction_id text NOT NULL UNIQUE,
  scheme_id text NOT NULL,
  rail text NOT NULL,
  -- docs/architecture.md "Transactions": pending and processing are transient; completed and failed
  -- are terminal.
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'processing', 'completed', 'failed')),
  amount_currency text NOT NULL CHECK (amount_currency ~ '^[A-Z]{3}$'),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  pay_currency text NOT NULL CHECK (pay_currency ~ '^[A-Z]{3}$'),
  pay_amount_minor bigint NOT NULL CHECK (pay_amount_minor > 0),
  -- Payer identity (docs/payer-identity.md), sent to the partner. Never logged in clear.
  payer_name text NOT NULL,
  payer_account text NOT NULL,
  payer_tax_id text NOT NULL,
  -- Ad-hoc webhook target given at execute (docs/architecture.md "Transactions").
  callback_url text,
  -- The partner's id of the payout, once submitted.
  partner_payout_id text,
  -- Stored on success (docs/api/resources.md "Transactions", result): the rail's reference and
  -- settlement time.
  result_reference text,
  result_settled_at timestamptz,
  -- Stored on failure (docs/api/resources.md "Transactions", error): ISO 20022 reason code, words,
  -- partner's raw status.
  error_code text,
  error_reason text,
  error_partner_status text,
  -- Polling path (docs/architecture.md "Polling and settlement horizons"): when the worker next
  -- asks the partner, claimed with FOR UPDATE SKIP LOCKED plus a lease, never a transaction held
  -- across the HTTP call.
  next_poll_at timestamptz,
  poll_attempts integer NOT NULL DEFAULT 0 CHECK (poll_attempts >= 0),
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT transactions_instruction_same_tenant
    FOREIGN KEY (tenant_id, instruction_id) REFERENCES instructions (tenant_id, id),
  CONSTRAINT transactions_result_iff_completed
    CHECK ((status = 'completed') = (result_reference IS NOT NULL AND result_settled_at IS NOT NULL)),
  CONSTRAINT transactions_error_iff_failed
    CHECK ((status = 'failed') = (error_code IS NOT NULL AND error_reason IS NOT NULL))
);

-- Work of the polling worker: transient transactions that are due.
CREATE INDEX transactions_due_poll_idx ON transactions (next_poll_at)
  WHERE status IN ('pending', 'processing');

-- docs/architecture.md "Transactions": a transaction never leaves a terminal state. The settlement
-- code will guard its UPDATEs with `WHERE status IN ('pending', 'processing')`; this trigger is the
-- backstop that refuses any change to the outcome of a completed or failed transaction, whatever
-- the caller.
CREATE FUNCTION transactions_keep_terminal_state() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status IN ('completed', 'failed') AND (
       NEW.status, NEW.result_reference, NEW.result_settled_at,
       NEW.error_code, NEW.error_reason, NEW.error_partner_status
     ) IS DISTINCT FROM (
       OLD.status, OLD.result_reference, OLD.result_settled_at,
       OLD.error_code, OLD.error_reason, OLD.error_partner_status
     ) THEN
    RAISE EXCEPTION 'transaction % is % and cannot change its outcome', OLD.id, OLD.status
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER transactions_terminal_state_guard
  BEFORE UPDATE ON transactions
  FOR EACH ROW EXECUTE FUNCTION transactions_keep_terminal_state();

-- Durable idempotency (docs/architecture.md "Idempotency"): unique per tenant and key, written in
-- the same database transaction as the transaction it created, so a lost Redis can never cause a
-- second payout.
CREATE TABLE idempotency_keys (
  tenant_id text NOT NULL,
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  -- SHA-256 of the canonical request: the same key with another body is IdempotencyConflict.
  request_fingerprint text NOT NULL,
  transaction_id text NOT NULL REFERENCES transactions (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- docs/api/idempotency.md "The Idempotency-Key": 24 hours, after which the key may be reused with
  -- any body.
  expires_at timestamptz NOT NULL,
  CONSTRAINT idempotency_keys_pkey PRIMARY KEY (tenant_id, key),
  CONSTRAINT idempotency_keys_expiry_after_creation CHECK (expires_at > created_at)
);

CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);

-- Transactional outbox (docs/architecture.md "The outbox and Kafka"): a terminal transition and its
-- payout.events.v1.TransactionEvent are written in one database transaction; the relay publishes
-- rows to Kafka and marks them.
CREATE TABLE outbox_events (
  -- Relay order.
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The event's UUID (event_id, docs/api/webhooks.md "The event"), also sent as the `event-id`
  -- header.
  event_id uuid NOT NULL UNIQUE,
  event_type text NOT NULL CHECK (event_type IN ('transaction.completed', 'transaction.failed')),
  topic text NOT NULL,
  -- Kafka message key: the transaction id, so one transaction's events share a partition.
  message_key text NOT NULL,
  -- payout.events.v1.TransactionEvent, protobuf binary.
  payload bytea NOT NULL,
  -- Message headers captured at write time (event-id, event-type, traceparent, tracestate).
  headers jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  last_error text
);

-- Work of the relay: unpublished events, oldest first.
CREATE INDEX outbox_events_unpublished_idx ON outbox_events (next_attempt_at, id)
  WHERE published_at IS NULL;
