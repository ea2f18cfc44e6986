import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { EXAMPLE_PAYER_IDENTITY, EXAMPLE_REQUEST_ID, EXAMPLE_SCHEME } from '../../openapi/examples';
import { example, okResponse } from '../../openapi/responses';
import { defineRoute, routeOptions } from '../../openapi/route';
import type { SchemeCatalogue } from '../../schemes/catalogue';
import { SCHEMES_RESPONSE_SCHEMA } from '../schemas';
import { AUTHENTICATED_ERRORS } from './shared-responses';

export const LIST_SCHEMES_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/schemes',
  schema: {
    operationId: 'listSchemes',
    tags: ['Schemes'],
    summary: 'List the accepted QR schemes',
    description:
      'The schemes the decoder recognizes, each with its country, currency, rail and the minimum and maximum amount ' +
      'its rail accepts (`min_amount`, `max_amount`; a positive amount outside them is 422 `AmountOutOfRange` at resolve ' +
      'and pay); and once for all of them, `payer_identity`: the payer fields execute and pay take and the payer ' +
      'documents payout checks, by issuing country and type. ' +
      'Cached by the gateway for SCHEMES_CACHE_TTL_MS (60 s by default): the list only changes with a decoder release or a change of payout limits.',
    response: {
      '200': okResponse(
        'The scheme catalogue.',
        SCHEMES_RESPONSE_SCHEMA,
        true,
        example('pix', 'The Pix scheme', {
          schemes: [EXAMPLE_SCHEME],
          payer_identity: EXAMPLE_PAYER_IDENTITY,
          request_id: EXAMPLE_REQUEST_ID,
        }),
      ),
      ...AUTHENTICATED_ERRORS,
    },
  },
});

/**
 * GET /v1/schemes (docs/api/resources.md "The scheme catalogue"): the decoder's catalogue, cached
 * in the gateway.
 */
export function registerSchemesRoute(
  app: FastifyInstance,
  deps: { schemes: SchemeCatalogue; authenticate: onRequestAsyncHookHandler },
): void {
  app.route({
    ...routeOptions(LIST_SCHEMES_ROUTE),
    onRequest: deps.authenticate,
    handler: async (request, reply) => {
      const { schemes, payerIdentity } = await deps.schemes.getJson();
      // Hot path: the cached texts are embedded as they are, no per-request serialization.
      reply.type('application/json; charset=utf-8');
      return `{"schemes":${schemes},"payer_identity":${payerIdentity},"request_id":"${request.id}"}`;
    },
  });
}
