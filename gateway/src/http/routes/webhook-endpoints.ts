import type { Client } from '@connectrpc/connect';
import type { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { toPublicWebhookEndpoint } from '../presenters/webhook-endpoint';

export interface WebhookEndpointsRouteDeps {
  webhook: Pick<Client<typeof WebhookService>, 'listEndpoints'>;
  authenticate: onRequestAsyncHookHandler;
}

/**
 * GET /v1/webhook-endpoints (docs/api/resources.md "Webhook endpoints"): every endpoint of the
 * key's tenant. Read-only on the public API: the operator registers endpoints (payoutctl,
 * docs/operators.md "Onboarding a tenant, step by step").
 */
export function registerWebhookEndpointsRoute(app: FastifyInstance, deps: WebhookEndpointsRouteDeps): void {
  app.get('/v1/webhook-endpoints', { onRequest: deps.authenticate }, async (request) => {
    const { endpoints } = await deps.webhook.listEndpoints({ tenantId: request.auth?.tenantId ?? '' });
    return { endpoints: endpoints.map(toPublicWebhookEndpoint), request_id: request.id };
  });
}
