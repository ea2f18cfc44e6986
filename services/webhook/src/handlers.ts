import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { DELIVERY_STATUSES, type DeliveryStatusName, deliveryStatuses } from '@qr-payout/platform/vocabulary';
import {
  type Delivery,
  type DeliveryAttempt,
  DeliveryAttemptSchema,
  DeliverySchema,
  DeliveryStatus,
  type Endpoint,
  EndpointSchema,
  type WebhookService,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { maxAttempts } from './deliveries/schedule';
import type { DeliveryService } from './deliveries/service';
import type { AttemptRow, DeliveryRow } from './deliveries/store';
import { retryStrategyOf } from './endpoints/retry-strategy';
import type { EndpointRow, EndpointService } from './endpoints/service';
import type { SigningSecretService } from './secrets/service';
import { validationError } from './validation';

export type WebhookHandlers = ServiceImpl<typeof WebhookService>;

/**
 * The endpoint as the API shows it: header names only, values never
 * (docs/api/resources.md "Webhook endpoints").
 */
export function toEndpointMessage(row: EndpointRow): Endpoint {
  return create(EndpointSchema, {
    id: row.id,
    tenantId: row.tenantId,
    url: row.url,
    eventTypes: row.eventTypes,
    headerNames: row.headerNames,
    retryStrategy: retryStrategyOf(row.retryStrategy),
    enabled: row.enabled,
    disabledReason: row.disabledReason ?? '',
    createdAt: timestampFromDate(row.createdAt),
  });
}

function statusFilter(status: DeliveryStatus): DeliveryStatusName | undefined {
  if (status === DeliveryStatus.UNSPECIFIED) return undefined;
  const name = deliveryStatuses.nameOf(status);
  if (!name) throw validationError('status', `status must be one of ${DELIVERY_STATUSES.join(', ')}`);
  return name;
}

export function toDeliveryMessage(row: DeliveryRow): Delivery {
  return create(DeliverySchema, {
    id: row.id,
    tenantId: row.tenantId,
    eventId: row.eventId,
    eventType: row.eventType,
    transactionId: row.transactionId ?? '',
    endpointId: row.endpointId ?? '',
    url: row.url,
    status: deliveryStatuses.toProto(row.status),
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt ? timestampFromDate(row.nextAttemptAt) : undefined,
    lastResponseStatus: row.lastResponseStatus ?? 0,
    lastError: row.lastError ?? '',
    createdAt: timestampFromDate(row.createdAt),
    updatedAt: timestampFromDate(row.updatedAt),
    lastAttemptAt: row.lastAttemptAt ? timestampFromDate(row.lastAttemptAt) : undefined,
    maxAttempts: maxAttempts(row.retryStrategy),
    retryStrategy: retryStrategyOf(row.retryStrategy),
  });
}

function toAttemptMessage(row: AttemptRow): DeliveryAttempt {
  return create(DeliveryAttemptSchema, {
    attemptNumber: row.attemptNumber,
    trigger: row.trigger,
    startedAt: timestampFromDate(row.startedAt),
    durationMs: row.durationMs ?? 0,
    responseStatus: row.responseStatus ?? 0,
    errorClass: row.errorClass ?? '',
    error: row.error ?? '',
    resolvedAddress: row.resolvedAddress ?? '',
    responseExcerpt: row.responseExcerpt ?? '',
    succeeded: row.succeeded,
  });
}

// Public callers always name their tenant; only the admin API asks for all tenants.
function scopeOf(req: { tenantId: string; allTenants: boolean }): string | null {
  return req.allTenants ? null : req.tenantId;
}

export function createWebhookHandlers(deps: {
  endpoints: EndpointService;
  signingSecrets: SigningSecretService;
  deliveries: DeliveryService;
}): WebhookHandlers {
  const { endpoints, signingSecrets, deliveries } = deps;
  return {
    async createEndpoint(req) {
      const endpoint = await endpoints.create({
        tenantId: req.tenantId,
        url: req.url,
        eventTypes: req.eventTypes,
        headers: req.headers.map(({ name, value }) => ({ name, value })),
        retryStrategy: req.retryStrategy,
      });
      return { endpoint: toEndpointMessage(endpoint) };
    },

    async setEndpointEnabled(req) {
      return { endpoint: toEndpointMessage(await endpoints.setEnabled(req.endpointId, req.enabled)) };
    },

    async listEndpoints(req) {
      return { endpoints: (await endpoints.list(req.tenantId)).map(toEndpointMessage) };
    },

    async listDeliveries(req) {
      const page = await deliveries.list({
        tenantId: req.tenantId,
        transactionId: req.transactionId,
        status: statusFilter(req.status),
        limit: req.page?.limit ?? 0,
        cursor: req.page?.cursor ?? '',
      });
      return {
        deliveries: page.deliveries.map(toDeliveryMessage),
        pageInfo: { nextCursor: page.nextCursor },
      };
    },

    async getDelivery(req) {
      const { delivery, attempts, earlierAttempts } = await deliveries.get(req.deliveryId, scopeOf(req));
      return {
        delivery: toDeliveryMessage(delivery),
        attempts: attempts.map(toAttemptMessage),
        earlierAttempts,
      };
    },

    async replayDelivery(req) {
      return { delivery: toDeliveryMessage(await deliveries.replay(req.deliveryId, scopeOf(req))) };
    },

    async pingEndpoint(req) {
      return { delivery: toDeliveryMessage(await deliveries.ping(req.endpointId)) };
    },

    async rotateSigningSecret(req) {
      const rotated = await signingSecrets.rotate(
        req.tenantId,
        req.secret || undefined,
        req.gracePeriodSeconds,
      );
      return {
        secret: rotated.secret,
        previousExpiresAt: rotated.previousExpiresAt
          ? timestampFromDate(rotated.previousExpiresAt)
          : undefined,
      };
    },
  };
}
