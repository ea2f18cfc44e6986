import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  type Endpoint,
  EndpointSchema,
  type WebhookService,
} from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { retryStrategyOf } from './endpoints/retry-strategy';
import type { EndpointRow, EndpointService } from './endpoints/service';
import type { SigningSecretService } from './secrets/service';

// WebhookService RPCs implemented so far. ListDeliveries and ReplayDelivery come with the
// delivery worker; until then Connect answers UNIMPLEMENTED for them.
export type WebhookHandlers = Pick<
  ServiceImpl<typeof WebhookService>,
  'createEndpoint' | 'setEndpointEnabled' | 'listEndpoints' | 'rotateSigningSecret'
>;

/** The endpoint as the API shows it: header names only, values never (spec §2.3, §4.6). */
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

export function createWebhookHandlers(deps: {
  endpoints: EndpointService;
  signingSecrets: SigningSecretService;
}): WebhookHandlers {
  const { endpoints, signingSecrets } = deps;
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

    async rotateSigningSecret(req) {
      return { secret: await signingSecrets.rotate(req.tenantId, req.secret || undefined) };
    },
  };
}
