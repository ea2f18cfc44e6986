import type { Pool } from 'pg';
import type { RetryStrategyName } from './retry-strategy';

// All SQL of registered endpoints. Tables live in the service's schema (search_path of the pool).
// Listing never selects headers_sealed: header values leave the table only to be sent.

export interface EndpointRow {
  id: string;
  tenantId: string;
  url: string;
  eventTypes: string[];
  headerNames: string[];
  retryStrategy: RetryStrategyName;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewEndpointRow {
  id: string;
  tenantId: string;
  url: string;
  eventTypes: string[];
  headerNames: string[];
  /** Names and values sealed together; null when there are no custom headers. */
  headersSealed: Buffer | null;
  retryStrategy: RetryStrategyName;
}

interface EndpointRecord {
  id: string;
  tenant_id: string;
  url: string;
  event_types: string[];
  header_names: string[];
  retry_strategy: RetryStrategyName;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = `id, tenant_id, url, event_types, header_names, retry_strategy, enabled,
  disabled_reason, failing_since, created_at, updated_at`;

function toEndpoint(r: EndpointRecord): EndpointRow {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    url: r.url,
    eventTypes: r.event_types,
    headerNames: r.header_names,
    retryStrategy: r.retry_strategy,
    enabled: r.enabled,
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export interface EndpointStore {
  insertEndpoint(row: NewEndpointRow): Promise<EndpointRow>;
  /**
   * Enables (clearing the reason and the failure run, so auto-disable starts afresh) or disables
   * by operator (keeping an earlier reason, such as auto-disable). Undefined when no such id.
   */
  updateEndpointEnabled(id: string, enabled: boolean, reason: string): Promise<EndpointRow | undefined>;
  /** One endpoint by id, any tenant; undefined when there is none. */
  findEndpoint(id: string): Promise<EndpointRow | undefined>;
  /** A tenant's endpoints, oldest first. */
  listEndpointsByTenant(tenantId: string): Promise<EndpointRow[]>;
}

export function createEndpointStore(db: Pool): EndpointStore {
  return {
    async insertEndpoint(row) {
      const { rows } = await db.query<EndpointRecord>(
        `INSERT INTO endpoints (id, tenant_id, url, event_types, header_names, headers_sealed, retry_strategy)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         RETURNING ${ENDPOINT_COLUMNS}`,
        [
          row.id,
          row.tenantId,
          row.url,
          row.eventTypes,
          row.headerNames,
          row.headersSealed,
          row.retryStrategy,
        ],
      );
      return toEndpoint(rows[0]!);
    },

    async updateEndpointEnabled(id, enabled, reason) {
      const { rows } = await db.query<EndpointRecord>(
        `UPDATE endpoints SET
           enabled = $2,
           disabled_reason = CASE WHEN $2 THEN NULL ELSE coalesce(disabled_reason, $3) END,
           failing_since = CASE WHEN $2 THEN NULL ELSE failing_since END,
           updated_at = now()
         WHERE id = $1
         RETURNING ${ENDPOINT_COLUMNS}`,
        [id, enabled, reason],
      );
      return rows[0] && toEndpoint(rows[0]);
    },

    async findEndpoint(id) {
      const { rows } = await db.query<EndpointRecord>(
        `SELECT ${ENDPOINT_COLUMNS} FROM endpoints WHERE id = $1`,
        [id],
      );
      return rows[0] && toEndpoint(rows[0]);
    },

    async listEndpointsByTenant(tenantId) {
      const { rows } = await db.query<EndpointRecord>(
        `SELECT ${ENDPOINT_COLUMNS} FROM endpoints WHERE tenant_id = $1 ORDER BY created_at, id`,
        [tenantId],
      );
      return rows.map(toEndpoint);
    },
  };
}
