import type { FastifyInstance } from 'fastify';
import { apiError } from '../../errors/api-error';
import { example, okResponse, ref } from '../../openapi/responses';
import { defineRoute, routeOptions } from '../../openapi/route';
import { HEALTH_RESPONSE_SCHEMA } from '../schemas';

const HEALTH_OK = example('ok', 'Up', { status: 'ok' });

export interface Readiness {
  /** Why the gateway cannot take traffic, or undefined when it can. */
  notReadyReason(): Promise<string | undefined>;
}

export const HEALTHZ_ROUTE = defineRoute({
  method: 'GET',
  url: '/healthz',
  schema: {
    operationId: 'healthz',
    tags: ['Operations'],
    summary: 'Liveness: the process is up',
    description: 'Answers 200 while the process runs; for orchestrators.',
    security: [],
    response: { '200': okResponse('Alive.', HEALTH_RESPONSE_SCHEMA, false, HEALTH_OK) },
  },
});

export const READYZ_ROUTE = defineRoute({
  method: 'GET',
  url: '/readyz',
  schema: {
    operationId: 'readyz',
    tags: ['Operations'],
    summary: 'Readiness: 503 while shutting down or without the database',
    description:
      'Answers 200 when the gateway can take requests; 503 while it drains or cannot reach its database.',
    security: [],
    response: {
      '200': okResponse('Ready.', HEALTH_RESPONSE_SCHEMA, false, HEALTH_OK),
      '503': ref('responses', 'ServiceUnavailable'),
    },
  },
});

/** /healthz: the process is alive. /readyz: 503 while shutting down or without its database. */
export function registerHealthRoutes(app: FastifyInstance, deps: { readiness: Readiness }): void {
  app.route({ ...routeOptions(HEALTHZ_ROUTE), handler: async () => ({ status: 'ok' }) });
  app.route({
    ...routeOptions(READYZ_ROUTE),
    handler: async () => {
      const reason = await deps.readiness.notReadyReason();
      if (reason)
        throw apiError('ServiceUnavailable', `Not ready: ${reason}.`, { headers: { 'retry-after': '1' } });
      return { status: 'ok' };
    },
  });
}
