import { context } from '@opentelemetry/api';
import { isId, newId, newUuidV7 } from '@qr-payout/platform/ids';
import { decodeKeysetCursor, encodeKeysetCursor, pageSizeOf } from '@qr-payout/platform/paging';
import { endpointNotFound } from '../endpoints/errors';
import type { EndpointStore } from '../endpoints/store';
import { requireTenantId, validationError } from '../validation';
import { deliveryTraceContextOf } from './attempt-span';
import { pingEventBody } from './envelope';
import { deliveryInFlight, deliveryNotFound, deliveryReplayTooSoon } from './errors';
import type { DeliveryStatus } from './state';
import type * as store from './store';

// Deliveries as the operations API sees them (docs/api/webhooks.md "Webhook deliveries",
// "Delivery states"): a tenant's list with filters and cursor paging, one delivery with its
// attempts, replay, and the operator's ping.

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export type DeliveryPage = { deliveries: store.DeliveryRow[]; nextCursor: string };

export interface DeliveryService {
  list(opts: {
    tenantId: string;
    transactionId: string;
    status: DeliveryStatus | undefined;
    limit: number;
    cursor: string;
  }): Promise<DeliveryPage>;
  /** `tenantId` null: the operator, any tenant. */
  get(
    deliveryId: string,
    tenantId: string | null,
  ): Promise<{ delivery: store.DeliveryRow; attempts: store.AttemptRow[]; earlierAttempts: number }>;
  replay(deliveryId: string, tenantId: string | null): Promise<store.DeliveryRow>;
  ping(endpointId: string): Promise<store.DeliveryRow>;
}

function decodeCursor(raw: string): store.DeliveryCursor {
  const position = decodeKeysetCursor(raw, 'whd');
  if (!position) throw validationError('cursor', 'cursor is not a next_cursor returned by this API');
  return position;
}

function pageSize(limit: number): number {
  const size = pageSizeOf(limit, { default: DEFAULT_PAGE_SIZE, max: MAX_PAGE_SIZE });
  if (size === undefined)
    throw validationError('limit', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  return size;
}

export function createDeliveryService(deps: {
  deliveries: store.DeliveryStore;
  endpoints: EndpointStore;
  /** The worker's wake-up: a replayed or pinged delivery is due now. */
  onDue: () => void;
  /** WEBHOOK_REPLAY_MIN_INTERVAL_MS: the least time between two replays of one delivery. */
  replayMinIntervalMs: number;
}): DeliveryService {
  const { deliveries, endpoints, onDue, replayMinIntervalMs } = deps;

  function requireDeliveryId(deliveryId: string): void {
    if (deliveryId === '') throw validationError('delivery_id', 'delivery_id is required');
    // Any other shape cannot exist: the same 404 as an unknown id.
    if (!isId(deliveryId, 'whd')) throw deliveryNotFound(deliveryId);
  }

  return {
    async list(opts) {
      requireTenantId(opts.tenantId);
      const limit = pageSize(opts.limit);
      const after = opts.cursor === '' ? undefined : decodeCursor(opts.cursor);
      if (opts.transactionId !== '' && !isId(opts.transactionId, 'txn')) {
        throw validationError('transaction_id', 'transaction_id must be a transaction id (txn_...)');
      }
      // One row more than asked tells whether another page exists.
      const { rows, cursors } = await deliveries.listDeliveries({
        tenantId: opts.tenantId,
        transactionId: opts.transactionId || undefined,
        status: opts.status,
        limit: limit + 1,
        after,
      });
      const page = rows.slice(0, limit);
      const last = cursors[limit - 1];
      return { deliveries: page, nextCursor: rows.length > limit && last ? encodeKeysetCursor(last) : '' };
    },

    async get(deliveryId, tenantId) {
      if (tenantId !== null) requireTenantId(tenantId);
      requireDeliveryId(deliveryId);
      const delivery = await deliveries.findDelivery(deliveryId, tenantId);
      if (!delivery) throw deliveryNotFound(deliveryId);
      return { delivery, ...(await deliveries.listAttempts(deliveryId)) };
    },

    async replay(deliveryId, tenantId) {
      if (tenantId !== null) requireTenantId(tenantId);
      requireDeliveryId(deliveryId);
      const outcome = await deliveries.replayDelivery(deliveryId, tenantId, replayMinIntervalMs);
      switch (outcome.kind) {
        case 'notFound':
          throw deliveryNotFound(deliveryId);
        case 'inFlight':
          throw deliveryInFlight(deliveryId, outcome.delivery.status);
        case 'tooSoon': {
          // Whole seconds, rounded up: a retry after Retry-After is never early.
          const seconds = Math.max(1, Math.ceil(outcome.retryAfterMs / 1000));
          throw deliveryReplayTooSoon(deliveryId, replayMinIntervalMs, seconds);
        }
        case 'replayed':
          onDue();
          return outcome.delivery;
      }
    },

    async ping(endpointId) {
      if (endpointId === '') throw validationError('endpoint_id', 'endpoint_id is required');
      const endpoint = isId(endpointId, 'whe') ? await endpoints.findEndpoint(endpointId) : undefined;
      if (!endpoint) throw endpointNotFound(endpointId);
      const envelope = pingEventBody({ eventId: newUuidV7(), endpointId, occurredAt: new Date() });
      const id = newId('whd');
      await deliveries.insertDeliveries([
        {
          id,
          tenantId: endpoint.tenantId,
          eventId: envelope.eventId,
          eventType: envelope.eventType,
          transactionId: null,
          endpointId,
          url: endpoint.url,
          retryStrategy: endpoint.retryStrategy,
          payload: envelope.body,
          trigger: 'ping',
          // The ping's attempt joins the trace of the Ping call.
          traceContext: deliveryTraceContextOf(context.active()),
        },
      ]);
      onDue();
      const delivery = await deliveries.findDelivery(id, null);
      if (!delivery) throw new Error(`ping delivery ${id} was not stored`);
      return delivery;
    },
  };
}
