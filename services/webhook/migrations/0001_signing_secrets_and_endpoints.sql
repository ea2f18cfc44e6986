-- Tenant signing secrets and registered endpoints (docs/api/resources.md "Webhook endpoints";
-- docs/api/webhooks.md "The signature"; docs/architecture.md "Services and what each owns").
-- Applied with search_path set to the service's schema (DB_SCHEMA, default "webhook"), so tables
-- are created unqualified. Secret material is stored sealed (AES-256-GCM,
-- src/crypto/sealed-box.ts): never in clear, never comparable by value.

-- One signing secret per tenant (docs/api/webhooks.md "The signature"); rotation replaces it.
CREATE TABLE signing_secrets (
  tenant_id text PRIMARY KEY CHECK (tenant_id LIKE 'ten\_%'),
  -- Sealed `whsec_...` secret, bound to the tenant id as authenticated data.
  secret_sealed bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz
);

CREATE TABLE endpoints (
  id text PRIMARY KEY CHECK (id LIKE 'whe\_%'),
  tenant_id text NOT NULL CHECK (tenant_id LIKE 'ten\_%'),
  url text NOT NULL CHECK (url ~ '^https?://'),
  -- Subscribed event types, or {*} for all current and future types (docs/api/resources.md
  -- "Webhook endpoints").
  event_types text[] NOT NULL CHECK (cardinality(event_types) > 0),
  -- Header names in clear for listing (docs/api/webhooks.md "Custom headers"); names and values
  -- together sealed below, bound to the endpoint id. NULL when the endpoint has no custom headers.
  header_names text[] NOT NULL DEFAULT '{}' CHECK (cardinality(header_names) <= 20),
  headers_sealed bytea,
  retry_strategy text NOT NULL DEFAULT 'standard' CHECK (retry_strategy IN ('standard', 'extended')),
  enabled boolean NOT NULL DEFAULT true,
  -- Why it is disabled ('operator', 'failing for 5 days'); NULL while enabled.
  disabled_reason text,
  -- Start of the current run of failed attempts; NULL after any success (docs/api/webhooks.md
  -- "Auto-disable").
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((cardinality(header_names) = 0) = (headers_sealed IS NULL)),
  CHECK (enabled = (disabled_reason IS NULL))
);

-- Lists per tenant, and the dispatcher's lookup of a tenant's enabled endpoints per event.
CREATE INDEX endpoints_tenant_idx ON endpoints (tenant_id, created_at, id);
