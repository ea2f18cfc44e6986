-- Tenants and their API keys (docs/architecture.md "Services and what each owns",
-- docs/api/resources.md "Authentication"). Applied with search_path set to the gateway's schema
-- (DB_SCHEMA, default "gateway"), so tables are created unqualified.

CREATE TABLE tenants (
  id text PRIMARY KEY CHECK (id LIKE 'ten\_%'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- Requests per minute per key; NULL means the gateway's default (RATE_LIMIT_DEFAULT).
  rate_limit_per_minute integer CHECK (rate_limit_per_minute IS NULL OR rate_limit_per_minute > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A key is never stored in clear: only its public prefix and the SHA-256 of the whole key.
-- Authentication looks the hash up through its unique index, never compares secrets as strings.
CREATE TABLE api_keys (
  prefix text PRIMARY KEY,
  key_hash bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
  tenant_id text NOT NULL REFERENCES tenants (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE INDEX api_keys_tenant_id_idx ON api_keys (tenant_id, created_at);
