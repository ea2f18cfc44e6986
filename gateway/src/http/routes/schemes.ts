import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { SchemeCatalogue } from '../../schemes/catalogue';

/**
 * GET /v1/schemes (docs/api/resources.md "The scheme catalogue"): the decoder's catalogue, cached
 * in the gateway.
 */
export function registerSchemesRoute(
  app: FastifyInstance,
  deps: { schemes: SchemeCatalogue; authenticate: onRequestAsyncHookHandler },
): void {
  app.get('/v1/schemes', { onRequest: deps.authenticate }, async (request, reply) => {
    const schemesJson = await deps.schemes.getJson();
    // Hot path: the cached array text is embedded as is, no per-request serialization.
    reply.type('application/json; charset=utf-8');
    return `{"schemes":${schemesJson},"request_id":"${request.id}"}`;
  });
}
