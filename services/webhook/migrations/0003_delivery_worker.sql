-- What the dispatcher, the delivery worker, pings and secret rotation need (docs/api/webhooks.md
-- "Delivery states", "The signature", "Retries"; services/webhook/README.md "Delivery worker").

-- A ping (`webhook.ping`, sent by the operator to test an endpoint) is about no transaction.
ALTER TABLE deliveries ALTER COLUMN transaction_id DROP NOT NULL;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_event_type_check
  CHECK (event_type IN ('transaction.completed', 'transaction.failed', 'webhook.ping'));
ALTER TABLE deliveries ADD CONSTRAINT deliveries_transaction_check
  CHECK ((transaction_id IS NULL) = (event_type = 'webhook.ping'));

-- When the last attempt started (operators, the public API).
ALTER TABLE deliveries ADD COLUMN last_attempt_at timestamptz;
-- The claim that owns a delivering row: a worker finishes an attempt only while its token is the
-- row's, so a worker whose lease lapsed (and whose delivery was claimed again) changes nothing.
ALTER TABLE deliveries ADD COLUMN lease_token text;
-- What the next attempt is recorded as: 'scheduled', or 'replay' / 'ping' for the first attempt
-- after a replay or a ping.
ALTER TABLE deliveries ADD COLUMN next_trigger text NOT NULL DEFAULT 'scheduled'
  CHECK (next_trigger IN ('scheduled', 'replay', 'ping'));
ALTER TABLE deliveries ADD CONSTRAINT deliveries_delivering_token_check
  CHECK (status <> 'delivering' OR lease_token IS NOT NULL);

ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_trigger_check;
ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_trigger_check
  CHECK (trigger IN ('scheduled', 'replay', 'ping'));
-- Why an attempt got no 2xx: 'http_status', 'timeout', 'connection_refused', 'dns',
-- 'refused_target', 'endpoint_disabled', ...; NULL on success.
ALTER TABLE delivery_attempts ADD COLUMN error_class text;
-- The address the sender connected to, after the egress guard checked it.
ALTER TABLE delivery_attempts ADD COLUMN resolved_address text;

-- Secret rotation (docs/operators.md "Rotating the webhook signing secret"): the replaced secret
-- keeps signing (a second v1=) until it expires.
ALTER TABLE signing_secrets ADD COLUMN previous_secret_sealed bytea;
ALTER TABLE signing_secrets ADD COLUMN previous_expires_at timestamptz;
ALTER TABLE signing_secrets ADD CONSTRAINT signing_secrets_previous_check
  CHECK ((previous_secret_sealed IS NULL) = (previous_expires_at IS NULL));
