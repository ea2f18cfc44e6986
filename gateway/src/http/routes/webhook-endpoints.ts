import type { Client } from '@connectrpc/connect';
import type { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { EXAMPLE_ENDPOINT } from '../../openapi/examples';
import { example, okResponse, withRequestId } from '../../openapi/responses';
import { defineRoute, routeOptions } from '../../openapi/route';
import { tenantIdOf } from '../auth';
import { toPublicWebhookEndpoint } from '../presenters/webhook-endpoint';
import { WEBHOOK_ENDPOINTS_RESPONSE_SCHEMA } from '../schemas';
import { AUTHENTICATED_ERRORS } from './shared-responses';

export interface WebhookEndpointsRouteDeps {
  webhook: Pick<Client<typeof WebhookService>, 'listEndpoints'>;
  authenticate: onRequestAsyncHookHandler;
}

export const LIST_WEBHOOK_ENDPOINTS_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/webhook-endpoints',
  schema: {
    operationId: 'listWebhookEndpoints',
    tags: ['Webhook endpoints'],
    summary: "List the tenant's webhook endpoints",
    description:
      'Every webhook endpoint registered for your tenant, with the names of its custom ' +
      'headers (values are never shown). Endpoints are registered by the operator during onboarding.',
    response: {
      '200': okResponse(
        'The endpoints.',
        WEBHOOK_ENDPOINTS_RESPONSE_SCHEMA,
        true,
        example('one', 'One endpoint', withRequestId('endpoints', [EXAMPLE_ENDPOINT])),
      ),
      ...AUTHENTICATED_ERRORS,
    },
  },
});

/**
 * GET /v1/webhook-endpoints (docs/api/resources.md "Webhook endpoints"): every endpoint of the
 * key's tenant. Read-only on the public API: the operator registers endpoints (payoutctl,
 * docs/operators.md "Onboarding a tenant, step by step").
 */
export function registerWebhookEndpointsRoute(app: FastifyInstance, deps: WebhookEndpointsRouteDeps): void {
  app.route({
    ...routeOptions(LIST_WEBHOOK_ENDPOINTS_ROUTE),
    onRequest: deps.authenticate,
    handler: async (request) => {
      const { endpoints } = await deps.webhook.listEndpoints({ tenantId: tenantIdOf(request) });
      return { endpoints: endpoints.map(toPublicWebhookEndpoint), request_id: request.id };
    },
  });
}
