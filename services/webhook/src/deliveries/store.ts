import type { Pool } from 'pg';
import type { RetryStrategyName } from '../endpoints/retry-strategy';
import type { WebhookEventType } from './envelope';
import { type DeliveryStatus, nextStatus, statusesAllowing } from './state';

// All SQL of deliveries and attempts. Every state change is ONE statement guarded by the states
// that allow it (state.ts), so it is atomic on PostgreSQL and on the sandbox's single-session
// PGlite alike, and a delivery row never leaves the table of docs/api/webhooks.md "Delivery states".

export type DeliveryTrigger = 'scheduled' | 'replay' | 'ping';

export interface DeliveryRow {
  id: string;
  tenantId: string;
  eventId: string;
  eventType: WebhookEventType;
  transactionId: string | null;
  endpointId: string | null;
  url: string;
  status: DeliveryStatus;
  retryStrategy: RetryStrategyName;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface DeliveryRecord {
  id: string;
  tenant_id: string;
  event_id: string;
  event_type: WebhookEventType;
  transaction_id: string | null;
  endpoint_id: string | null;
  url: string;
  status: DeliveryStatus;
  retry_strategy: RetryStrategyName;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Attempts of earlier series a replay keeps (docs/api/webhooks.md "Seeing what happened"). */
export const KEPT_EARLIER_ATTEMPTS = 100;

const DELIVERY_COLUMNS = `id, tenant_id, event_id, event_type, transaction_id, endpoint_id, url, status,
  retry_strategy, attempts, next_attempt_at, last_attempt_at, last_response_status, last_error,
  created_at, updated_at`;

function toDelivery(r: DeliveryRecord): DeliveryRow {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    eventId: r.event_id,
    eventType: r.event_type,
    transactionId: r.transaction_id,
    endpointId: r.endpoint_id,
    url: r.url,
    status: r.status,
    retryStrategy: r.retry_strategy,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastAttemptAt: r.last_attempt_at,
    lastResponseStatus: r.last_response_status,
    lastError: r.last_error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

// The guards of each transition, spelled from state.ts. They are literals in the SQL (not
// parameters) so the planner can use the partial indexes on status.
function statusIn(event: Parameters<typeof statusesAllowing>[0]): string {
  return `(${statusesAllowing(event)
    .map((status) => `'${status}'`)
    .join(', ')})`;
}

// ---------------------------------------------------------------------------------------------
// Dispatcher

export interface DeliveryTarget {
  endpointId: string | null;
  url: string;
  retryStrategy: RetryStrategyName;
}

export interface TenantEndpoint extends DeliveryTarget {
  endpointId: string;
  eventTypes: string[];
}

/**
 * The W3C trace context a delivery's attempts continue (docs/architecture.md "Traces"): the
 * dispatcher's `process` span for the event, or the ping's RPC.
 */
export interface DeliveryTraceContext {
  traceparent: string;
  tracestate: string | null;
}

export interface NewDelivery extends DeliveryTarget {
  id: string;
  tenantId: string;
  eventId: string;
  eventType: WebhookEventType;
  transactionId: string | null;
  payload: Buffer;
  trigger: DeliveryTrigger;
  /** Absent or null when telemetry is off: the row stores NULL. */
  traceContext?: DeliveryTraceContext | null;
}

// ---------------------------------------------------------------------------------------------
// Worker

/** A delivery the worker now owns until `leaseUntil`, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  tenantId: string;
  eventId: string;
  eventType: WebhookEventType;
  endpointId: string | null;
  url: string;
  retryStrategy: RetryStrategyName;
  attempts: number;
  trigger: DeliveryTrigger;
  payload: Buffer;
  /** False when the endpoint was disabled after the delivery was made; null for callback_url. */
  endpointEnabled: boolean | null;
  headersSealed: Buffer | null;
  secretSealed: Buffer | null;
  /**
   * The replaced secret while its grace period lasts (docs/api/webhooks.md "The signature"
   * rotation), else null.
   */
  previousSecretSealed: Buffer | null;
  /** The trace the attempt's span joins; null when none was stored. */
  traceContext: DeliveryTraceContext | null;
}

interface ClaimedRecord {
  id: string;
  tenant_id: string;
  event_id: string;
  event_type: WebhookEventType;
  endpoint_id: string | null;
  url: string;
  retry_strategy: RetryStrategyName;
  attempts: number;
  next_trigger: DeliveryTrigger;
  payload: Buffer;
  endpoint_enabled: boolean | null;
  headers_sealed: Buffer | null;
  secret_sealed: Buffer | null;
  previous_secret_sealed: Buffer | null;
  traceparent: string | null;
  tracestate: string | null;
}

/** What one HTTP attempt gave, and what the schedule decided next. */
export interface AttemptResult {
  deliveryId: string;
  leaseToken: string;
  trigger: DeliveryTrigger;
  startedAt: Date;
  durationMs: number;
  succeeded: boolean;
  responseStatus: number | null;
  responseExcerpt: string | null;
  errorClass: string | null;
  error: string | null;
  resolvedAddress: string | null;
  /** delivered on success; pending (retry), exhausted or failed otherwise. */
  next: 'delivered' | 'pending' | 'exhausted' | 'failed';
  nextAttemptAt: Date | null;
}

export interface AutoDisableRule {
  /**
   * An endpoint whose attempts only failed for this long is disabled
   * (docs/api/webhooks.md "Auto-disable").
   */
  afterMs: number;
  /** endpoints.disabled_reason it gets. */
  reason: string;
  /** deliveries.last_error of the deliveries it fails. */
  deliveryError: string;
}

export type FinishedAttempt = {
  delivery: DeliveryRow;
  /** The attempt disabled its endpoint (auto-disable). */
  endpointDisabled: boolean;
};

// ---------------------------------------------------------------------------------------------
// Reads and replay

/** Where a page of newest-first deliveries starts: just after this row. */
export interface DeliveryCursor {
  createdAt: string;
  id: string;
}

export interface AttemptRow {
  attemptNumber: number;
  trigger: DeliveryTrigger;
  startedAt: Date;
  durationMs: number | null;
  responseStatus: number | null;
  errorClass: string | null;
  error: string | null;
  resolvedAddress: string | null;
  responseExcerpt: string | null;
  succeeded: boolean;
}

// ---------------------------------------------------------------------------------------------
// The store

export interface DeliveryStore {
  // Dispatcher
  /**
   * The tenants of `tenantIds` this service knows (it holds their signing secret) with their enabled
   * endpoints, oldest first. A tenant without a secret here belongs to another deployment sharing the
   * topic (or a test's): every tenant gets a secret at creation, and nothing could sign for it anyway.
   */
  findTenantEndpoints(tenantIds: string[]): Promise<Map<string, TenantEndpoint[]>>;
  /**
   * Inserts the deliveries of one event in one statement, due at once. A delivery that exists
   * already for the same event and target is left alone (a redelivered Kafka message creates
   * nothing twice). Returns the ids inserted.
   */
  insertDeliveries(rows: NewDelivery[]): Promise<string[]>;
  // Worker
  /**
   * Claims up to `limit` due deliveries (pending and due, or delivering with a lapsed lease: a
   * crashed worker's) with FOR UPDATE SKIP LOCKED, sets the lease and the claim's token, and
   * commits at once: no transaction is held across the HTTP call.
   */
  claimDueDeliveries(opts: { limit: number; leaseMs: number; token: string }): Promise<ClaimedDelivery[]>;
  /**
   * When the most overdue pending delivery became due (null when none is due): the
   * webhook_oldest_due_delivery_seconds gauge. One lookup in deliveries_due_idx.
   */
  oldestDueAt(): Promise<Date | null>;
  /**
   * Records an attempt and moves its delivery on, in one statement, only while the caller's lease
   * token still owns the row. On a failure it also runs the auto-disable rule
   * (docs/api/webhooks.md "Auto-disable") on every failure, not only at exhaustion: the endpoint's
   * failure run starts at its first failed attempt; once it has lasted `afterMs`, the endpoint is
   * disabled and this delivery becomes `failed` (replayable). A failure on an endpoint disabled
   * meanwhile is `failed` too. A success ends the endpoint's failure run. Undefined when the lease
   * was lost. The endpoint's other pending deliveries are failed by the caller
   * (failPendingDeliveriesOfEndpoint) only when this attempt disabled it, so the common path touches
   * no other row; were that step lost in a crash, the worker fails each of them anyway when it claims
   * it (its endpoint is disabled).
   */
  finishAttempt(result: AttemptResult, rule: AutoDisableRule): Promise<FinishedAttempt | undefined>;
  /**
   * Records successful attempts of many deliveries in one statement (the worker groups them for a
   * few milliseconds): each delivery still owned by its lease token becomes `delivered`, gets its
   * attempt row, and its endpoint's failure run ends (docs/api/webhooks.md "Retries"). Returns the
   * ids that were owned.
   */
  finishDelivered(results: AttemptResult[]): Promise<Set<string>>;
  /**
   * Fails a claimed delivery without an HTTP attempt (its endpoint was disabled after the delivery
   * was made). Undefined when the lease was lost.
   */
  failClaimedDelivery(opts: {
    deliveryId: string;
    leaseToken: string;
    error: string;
  }): Promise<DeliveryRow | undefined>;
  /** Fails an endpoint's pending deliveries (the operator disabled it). Returns how many. */
  failPendingDeliveriesOfEndpoint(endpointId: string, error: string): Promise<number>;
  // Reads and replay
  listDeliveries(opts: {
    tenantId: string;
    transactionId?: string;
    status?: DeliveryStatus;
    limit: number;
    after?: DeliveryCursor;
  }): Promise<{ rows: DeliveryRow[]; cursors: DeliveryCursor[] }>;
  /** The delivery, when it exists and (unless `tenantId` is null: the operator) is the tenant's. */
  findDelivery(id: string, tenantId: string | null): Promise<DeliveryRow | undefined>;
  /** A delivery's attempts, oldest first, across replays. */
  /** The attempts kept, oldest first, and how many older ones replays dropped. */
  listAttempts(deliveryId: string): Promise<{ attempts: AttemptRow[]; earlierAttempts: number }>;
  /**
   * Replay (docs/api/webhooks.md "Delivery states"): from delivered, failed or exhausted back to
   * pending, attempts 0, due now; the stored body (same event_id) is sent again; only when the last
   * replay is at least `minIntervalMs` ago (one row, one statement: the same on every replica).
   */
  replayDelivery(id: string, tenantId: string | null, minIntervalMs: number): Promise<ReplayOutcome>;
}

/**
 * What a replay did: `replayed`; refused as `inFlight` (pending or delivering) or `tooSoon` after
 * the last replay (`retryAfterMs` until one is allowed); `notFound` for this tenant.
 */
export type ReplayOutcome =
  | { kind: 'replayed' | 'inFlight'; delivery: DeliveryRow }
  | { kind: 'tooSoon'; delivery: DeliveryRow; retryAfterMs: number }
  | { kind: 'notFound' };

/** The dispatcher's: the endpoints an event goes to, and its deliveries. */
function dispatchStatements(db: Pool): Pick<DeliveryStore, 'findTenantEndpoints' | 'insertDeliveries'> {
  return {
    async findTenantEndpoints(tenantIds) {
      const { rows } = await db.query<{
        tenant_id: string;
        id: string | null;
        url: string;
        retry_strategy: RetryStrategyName;
        event_types: string[];
      }>(
        `SELECT s.tenant_id, e.id, e.url, e.retry_strategy, e.event_types
         FROM signing_secrets s
         LEFT JOIN endpoints e ON e.tenant_id = s.tenant_id AND e.enabled
         WHERE s.tenant_id = ANY($1::text[])
         ORDER BY e.created_at, e.id`,
        [tenantIds],
      );
      const byTenant = new Map<string, TenantEndpoint[]>();
      for (const r of rows) {
        const endpoints = byTenant.get(r.tenant_id) ?? [];
        byTenant.set(r.tenant_id, endpoints);
        if (r.id !== null) {
          endpoints.push({
            endpointId: r.id,
            url: r.url,
            retryStrategy: r.retry_strategy,
            eventTypes: r.event_types,
          });
        }
      }
      return byTenant;
    },

    async insertDeliveries(rows) {
      if (rows.length === 0) return [];
      const { rows: inserted } = await db.query<{ id: string }>(
        `INSERT INTO deliveries (id, tenant_id, event_id, event_type, transaction_id, endpoint_id, url,
           retry_strategy, payload, next_trigger, next_attempt_at, traceparent, tracestate)
         SELECT id, tenant_id, event_id, event_type, transaction_id, endpoint_id, url, retry_strategy,
           payload, next_trigger, now(), traceparent, tracestate
         FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[],
           $8::text[], $9::bytea[], $10::text[], $11::text[], $12::text[])
           AS t(id, tenant_id, event_id, event_type, transaction_id, endpoint_id, url, retry_strategy,
             payload, next_trigger, traceparent, tracestate)
         ON CONFLICT DO NOTHING
         RETURNING id`,
        [
          rows.map((r) => r.id),
          rows.map((r) => r.tenantId),
          rows.map((r) => r.eventId),
          rows.map((r) => r.eventType),
          rows.map((r) => r.transactionId),
          rows.map((r) => r.endpointId),
          rows.map((r) => r.url),
          rows.map((r) => r.retryStrategy),
          rows.map((r) => r.payload),
          rows.map((r) => r.trigger),
          rows.map((r) => r.traceContext?.traceparent ?? null),
          rows.map((r) => r.traceContext?.tracestate ?? null),
        ],
      );
      return inserted.map((r) => r.id);
    },
  };
}

/** The worker's claim of due deliveries (FOR UPDATE SKIP LOCKED plus a lease), and the queue's age. */
function claimStatements(db: Pool): Pick<DeliveryStore, 'claimDueDeliveries' | 'oldestDueAt'> {
  return {
    async claimDueDeliveries(opts) {
      const { rows } = await db.query<ClaimedRecord>(
        `WITH due AS (
           SELECT id FROM deliveries
           WHERE (status IN ${statusIn('claim')} AND next_attempt_at <= now())
              OR (status IN ${statusIn('reclaim')} AND lease_until < now())
           ORDER BY next_attempt_at
           LIMIT $1
           FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE deliveries d SET status = 'delivering',
             lease_until = now() + make_interval(secs => $2::double precision / 1000),
             lease_token = $3, updated_at = now()
           FROM due WHERE d.id = due.id
           RETURNING d.id, d.tenant_id, d.event_id, d.event_type, d.endpoint_id, d.url, d.retry_strategy,
             d.attempts, d.next_trigger, d.payload, d.traceparent, d.tracestate
         )
         SELECT c.*, e.enabled AS endpoint_enabled, e.headers_sealed, s.secret_sealed,
           CASE WHEN s.previous_expires_at > now() THEN s.previous_secret_sealed END AS previous_secret_sealed
         FROM claimed c
         LEFT JOIN endpoints e ON e.id = c.endpoint_id
         LEFT JOIN signing_secrets s ON s.tenant_id = c.tenant_id`,
        [opts.limit, opts.leaseMs, opts.token],
      );
      return rows.map((r) => ({
        id: r.id,
        tenantId: r.tenant_id,
        eventId: r.event_id,
        eventType: r.event_type,
        endpointId: r.endpoint_id,
        url: r.url,
        retryStrategy: r.retry_strategy,
        attempts: r.attempts,
        trigger: r.next_trigger,
        payload: r.payload,
        endpointEnabled: r.endpoint_id === null ? null : r.endpoint_enabled,
        headersSealed: r.headers_sealed,
        secretSealed: r.secret_sealed,
        previousSecretSealed: r.previous_secret_sealed,
        traceContext:
          r.traceparent === null ? null : { traceparent: r.traceparent, tracestate: r.tracestate },
      }));
    },

    async oldestDueAt() {
      const { rows } = await db.query<{ due_at: Date | null }>(
        `SELECT min(next_attempt_at) AS due_at FROM deliveries
          WHERE status = 'pending' AND next_attempt_at <= now()`,
      );
      return rows[0]?.due_at ?? null;
    },
  };
}

/** An attempt's outcome, each a statement guarded by the lease token or the delivery's state (services/webhook/README.md). */
function attemptStatements(
  db: Pool,
): Pick<
  DeliveryStore,
  'finishAttempt' | 'finishDelivered' | 'failClaimedDelivery' | 'failPendingDeliveriesOfEndpoint'
> {
  return {
    async finishAttempt(result, rule) {
      const { rows } = await db.query<DeliveryRecord & { endpoint_disabled: boolean }>(
        `WITH target AS (
           SELECT id, endpoint_id FROM deliveries
           WHERE id = $1 AND status = 'delivering' AND lease_token = $2
         ), run AS (
           SELECT e.id, e.enabled, coalesce(e.failing_since, $5::timestamptz) AS since
           FROM endpoints e JOIN target t ON e.id = t.endpoint_id
           WHERE NOT $13::boolean
         ), disabling AS (
           SELECT id FROM run
           WHERE enabled AND since <= now() - make_interval(secs => $14::double precision / 1000)
         ), off AS (
           SELECT id FROM disabling UNION SELECT id FROM run WHERE NOT enabled
         ), updated AS (
           UPDATE deliveries d SET
             status = CASE WHEN EXISTS (SELECT 1 FROM off) THEN 'failed' ELSE $3 END,
             attempts = d.attempts + 1,
             next_attempt_at = CASE WHEN EXISTS (SELECT 1 FROM off) THEN NULL ELSE $4::timestamptz END,
             lease_until = NULL, lease_token = NULL, next_trigger = 'scheduled',
             last_attempt_at = $5, last_response_status = $7,
             last_error = CASE WHEN EXISTS (SELECT 1 FROM off) THEN $16 ELSE $10 END,
             updated_at = now()
           FROM target t WHERE d.id = t.id
           RETURNING d.*
         ), recorded AS (
           INSERT INTO delivery_attempts (delivery_id, attempt_number, trigger, started_at, duration_ms,
             response_status, response_excerpt, error_class, error, resolved_address, succeeded)
           SELECT u.id, u.attempts, $12, $5, $6, $7, $8, $9, $10, $11, $13 FROM updated u
         ), endpoint_run AS (
           UPDATE endpoints e SET
             failing_since = CASE WHEN $13::boolean THEN NULL ELSE run.since END,
             enabled = e.enabled AND e.id NOT IN (SELECT id FROM disabling),
             disabled_reason = CASE WHEN e.id IN (SELECT id FROM disabling) THEN $15 ELSE e.disabled_reason END,
             updated_at = now()
           FROM updated u LEFT JOIN run ON true
           WHERE e.id = u.endpoint_id
             AND CASE WHEN $13::boolean THEN e.failing_since IS NOT NULL
                      ELSE e.enabled AND (e.failing_since IS NULL OR e.id IN (SELECT id FROM disabling)) END
         )
         SELECT ${DELIVERY_COLUMNS}, EXISTS (SELECT 1 FROM disabling) AS endpoint_disabled FROM updated`,
        [
          result.deliveryId,
          result.leaseToken,
          result.next,
          result.nextAttemptAt,
          result.startedAt,
          result.durationMs,
          result.responseStatus,
          result.responseExcerpt,
          result.errorClass,
          result.error,
          result.resolvedAddress,
          result.trigger,
          result.succeeded,
          rule.afterMs,
          rule.reason,
          rule.deliveryError,
        ],
      );
      const row = rows[0];
      return row && { delivery: toDelivery(row), endpointDisabled: row.endpoint_disabled };
    },

    async finishDelivered(results) {
      if (results.length === 0) return new Set();
      const { rows } = await db.query<{ id: string }>(
        `WITH input AS (
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::int[], $6::int[],
             $7::text[], $8::text[])
             AS t(id, token, trigger, started_at, duration_ms, response_status, response_excerpt,
               resolved_address)
         ), updated AS (
           UPDATE deliveries d SET status = 'delivered', attempts = d.attempts + 1, next_attempt_at = NULL,
             lease_until = NULL, lease_token = NULL, next_trigger = 'scheduled',
             last_attempt_at = i.started_at, last_response_status = i.response_status, last_error = NULL,
             updated_at = now()
           FROM input i
           WHERE d.id = i.id AND d.status = 'delivering' AND d.lease_token = i.token
           RETURNING d.id, d.attempts, d.endpoint_id
         ), recorded AS (
           INSERT INTO delivery_attempts (delivery_id, attempt_number, trigger, started_at, duration_ms,
             response_status, response_excerpt, resolved_address, succeeded)
           SELECT u.id, u.attempts, i.trigger, i.started_at, i.duration_ms, i.response_status,
             i.response_excerpt, i.resolved_address, true
           FROM updated u JOIN input i ON i.id = u.id
         ), run_ended AS (
           UPDATE endpoints e SET failing_since = NULL, updated_at = now()
           WHERE e.id IN (SELECT endpoint_id FROM updated WHERE endpoint_id IS NOT NULL)
             AND e.failing_since IS NOT NULL
         )
         SELECT id FROM updated`,
        [
          results.map((r) => r.deliveryId),
          results.map((r) => r.leaseToken),
          results.map((r) => r.trigger),
          results.map((r) => r.startedAt),
          results.map((r) => r.durationMs),
          results.map((r) => r.responseStatus),
          results.map((r) => r.responseExcerpt),
          results.map((r) => r.resolvedAddress),
        ],
      );
      return new Set(rows.map((r) => r.id));
    },

    async failClaimedDelivery(opts) {
      const { rows } = await db.query<DeliveryRecord>(
        `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, lease_until = NULL,
           lease_token = NULL, last_error = $3, updated_at = now()
         WHERE id = $1 AND status = 'delivering' AND lease_token = $2
         RETURNING ${DELIVERY_COLUMNS}`,
        [opts.deliveryId, opts.leaseToken, opts.error],
      );
      return rows[0] && toDelivery(rows[0]);
    },

    async failPendingDeliveriesOfEndpoint(endpointId, error) {
      const { rowCount } = await db.query(
        `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $2, updated_at = now()
         WHERE endpoint_id = $1 AND status IN ${statusIn('endpoint_disabled')} AND status <> 'delivering'`,
        [endpointId, error],
      );
      return rowCount ?? 0;
    },
  };
}

/** The API's reads and the replay. */
function readStatements(
  db: Pool,
): Pick<DeliveryStore, 'listDeliveries' | 'findDelivery' | 'listAttempts' | 'replayDelivery'> {
  return {
    async listDeliveries(opts) {
      const { rows } = await db.query<DeliveryRecord & { created_at_text: string }>(
        `SELECT ${DELIVERY_COLUMNS},
           to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_text
         FROM deliveries
         WHERE tenant_id = $1
           AND ($2::text IS NULL OR transaction_id = $2)
           AND ($3::text IS NULL OR status = $3)
           AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::text))
         ORDER BY created_at DESC, id DESC
         LIMIT $6`,
        [
          opts.tenantId,
          opts.transactionId ?? null,
          opts.status ?? null,
          opts.after?.createdAt ?? null,
          opts.after?.id ?? null,
          opts.limit,
        ],
      );
      return {
        rows: rows.map(toDelivery),
        cursors: rows.map((r) => ({ createdAt: r.created_at_text, id: r.id })),
      };
    },

    async findDelivery(id, tenantId) {
      const { rows } = await db.query<DeliveryRecord>(
        `SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2)`,
        [id, tenantId],
      );
      return rows[0] && toDelivery(rows[0]);
    },

    async listAttempts(deliveryId) {
      const { rows } = await db.query<{
        attempt_number: number;
        trigger: DeliveryTrigger;
        started_at: Date;
        duration_ms: number | null;
        response_status: number | null;
        error_class: string | null;
        error: string | null;
        resolved_address: string | null;
        response_excerpt: string | null;
        succeeded: boolean;
      }>(
        `SELECT attempt_number, trigger, started_at, duration_ms, response_status, error_class, error,
           resolved_address, response_excerpt, succeeded
         FROM delivery_attempts WHERE delivery_id = $1 ORDER BY id`,
        [deliveryId],
      );
      const earlier = await db.query<{ earlier_attempts: number }>(
        'SELECT earlier_attempts FROM deliveries WHERE id = $1',
        [deliveryId],
      );
      const attempts = rows.map((r) => ({
        attemptNumber: r.attempt_number,
        trigger: r.trigger,
        startedAt: r.started_at,
        durationMs: r.duration_ms,
        responseStatus: r.response_status,
        errorClass: r.error_class,
        error: r.error,
        resolvedAddress: r.resolved_address,
        responseExcerpt: r.response_excerpt,
        succeeded: r.succeeded,
      }));
      return { attempts, earlierAttempts: earlier.rows[0]?.earlier_attempts ?? 0 };
    },

    async replayDelivery(id, tenantId, minIntervalMs) {
      const { rows } = await db.query<DeliveryRecord & { replayed: boolean; retry_after_ms: number }>(
        `WITH found AS (
           SELECT id FROM deliveries WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2)
         ), replayed AS (
           UPDATE deliveries d SET status = 'pending', attempts = 0, next_attempt_at = now(),
             next_trigger = 'replay', last_error = NULL, updated_at = now(), last_replayed_at = now(),
             earlier_attempts = d.earlier_attempts + GREATEST(0,
               (SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id) - $3)::int
           FROM found WHERE d.id = found.id AND d.status IN ${statusIn('replay')}
             AND (d.last_replayed_at IS NULL
                  OR d.last_replayed_at <= now() - make_interval(secs => $4::double precision / 1000))
           RETURNING d.*
         ), dropped AS (
           -- The log stays bounded: the earlier series keep their latest $3 attempts.
           DELETE FROM delivery_attempts a
           WHERE a.delivery_id IN (SELECT id FROM replayed)
             AND a.id NOT IN (SELECT k.id FROM delivery_attempts k WHERE k.delivery_id = a.delivery_id
                              ORDER BY k.id DESC LIMIT $3)
         )
         SELECT ${DELIVERY_COLUMNS}, true AS replayed, 0 AS retry_after_ms FROM replayed
         UNION ALL
         SELECT ${DELIVERY_COLUMNS}, false AS replayed,
           COALESCE(ceil(EXTRACT(EPOCH FROM last_replayed_at - now()) * 1000 + $4::double precision), 0)::int AS retry_after_ms
         FROM deliveries
         WHERE id IN (SELECT id FROM found) AND NOT EXISTS (SELECT 1 FROM replayed)`,
        [id, tenantId, KEPT_EARLIER_ATTEMPTS, minIntervalMs],
      );
      const row = rows[0];
      if (!row) return { kind: 'notFound' };
      const delivery = toDelivery(row);
      if (row.replayed) return { kind: 'replayed', delivery };
      // Replayable yet not replayed: too soon, or a concurrent replay made it pending after this
      // statement's snapshot (then it is in flight).
      const replayable = nextStatus(delivery.status, 'replay') !== undefined;
      if (replayable && row.retry_after_ms > 0)
        return { kind: 'tooSoon', delivery, retryAfterMs: row.retry_after_ms };
      return { kind: 'inFlight', delivery: replayable ? { ...delivery, status: 'pending' } : delivery };
    },
  };
}

export function createDeliveryStore(db: Pool): DeliveryStore {
  return {
    ...dispatchStatements(db),
    ...claimStatements(db),
    ...attemptStatements(db),
    ...readStatements(db),
  };
}
