-- Deliveries and their attempts (docs/api/webhooks.md "Webhook deliveries", "Delivery states",
-- "Delivery semantics", "Retries"; docs/architecture.md "Webhook deliveries"). Written by the Kafka
-- dispatcher and the delivery worker.

-- One attempt series sending one event to one target: a registered endpoint, or the ad-hoc
-- callback_url of the transaction (endpoint_id NULL).
CREATE TABLE deliveries (
  id text PRIMARY KEY CHECK (id LIKE 'whd\_%'),
  tenant_id text NOT NULL CHECK (tenant_id LIKE 'ten\_%'),
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  transaction_id text NOT NULL,
  endpoint_id text REFERENCES endpoints (id),
  url text NOT NULL,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'delivering', 'delivered', 'failed', 'exhausted')),
  -- Snapshot of the endpoint's strategy at creation; 'standard' for the callback_url path.
  retry_strategy text NOT NULL DEFAULT 'standard' CHECK (retry_strategy IN ('standard', 'extended')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz,
  -- While delivering: until when the claiming worker owns it; an expired lease is claimable again.
  lease_until timestamptz,
  last_response_status integer CHECK (last_response_status BETWEEN 100 AND 599),
  last_error text,
  -- The exact body bytes (the event envelope, docs/api/webhooks.md "The event"); every attempt
  -- signs and sends the same bytes, so receivers see one body per event_id.
  payload bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status <> 'pending' OR next_attempt_at IS NOT NULL),
  CHECK (status <> 'delivering' OR lease_until IS NOT NULL)
);

-- A redelivered Kafka message creates nothing twice (docs/architecture.md "The outbox and Kafka"):
-- one delivery per event and registered endpoint, one per event and callback URL. Inserts use ON
-- CONFLICT DO NOTHING.
CREATE UNIQUE INDEX deliveries_event_endpoint_key ON deliveries (event_id, endpoint_id)
  WHERE endpoint_id IS NOT NULL;
CREATE UNIQUE INDEX deliveries_event_callback_key ON deliveries (event_id, url)
  WHERE endpoint_id IS NULL;

-- The worker claims due pending deliveries, and delivering ones whose lease expired,
-- with FOR UPDATE SKIP LOCKED (docs/contributing.md "Data").
CREATE INDEX deliveries_due_idx ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_lease_idx ON deliveries (lease_until) WHERE status = 'delivering';

-- GET /v1/webhook-deliveries: newest first per tenant, optionally by transaction and status.
CREATE INDEX deliveries_tenant_list_idx ON deliveries (tenant_id, created_at DESC, id DESC);
CREATE INDEX deliveries_tenant_transaction_idx ON deliveries (tenant_id, transaction_id, created_at DESC);
CREATE INDEX deliveries_endpoint_idx ON deliveries (endpoint_id) WHERE endpoint_id IS NOT NULL;

-- One row per HTTP attempt, for operators and the auto-disable rule. Numbered per series:
-- a replay resets deliveries.attempts, so the key is its own identity, not (delivery, number).
CREATE TABLE delivery_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  attempt_number integer NOT NULL CHECK (attempt_number >= 1),
  -- 'scheduled' (worker) or 'replay' (first attempt after POST .../replay).
  trigger text NOT NULL DEFAULT 'scheduled' CHECK (trigger IN ('scheduled', 'replay')),
  started_at timestamptz NOT NULL,
  duration_ms integer CHECK (duration_ms >= 0),
  -- NULL when no HTTP response arrived (timeout, refused connection, refused target).
  response_status integer CHECK (response_status BETWEEN 100 AND 599),
  -- First bytes of the response body, for support; never request headers (they hold secrets).
  response_excerpt text,
  error text,
  succeeded boolean NOT NULL
);

CREATE INDEX delivery_attempts_delivery_idx ON delivery_attempts (delivery_id, id);
