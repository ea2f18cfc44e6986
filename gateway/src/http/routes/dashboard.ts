import type { FastifyInstance } from 'fastify';
import { type DashboardFiles, loadDashboardFiles } from '../../dashboard/files';
import { dashboardHeaders } from '../../dashboard/headers';
import { apiError } from '../../errors/api-error';
import { htmlResponse, ref } from '../../openapi/responses';
import { defineRoute, type ParamsOf, routeOptions } from '../../openapi/route';

export const DASHBOARD_PAGE_ROUTE = defineRoute({
  method: 'GET',
  url: '/dashboard',
  schema: {
    operationId: 'getDashboardPage',
    tags: ['Service'],
    summary: 'The dashboard (HTML): not for API clients',
    description:
      'Transactions, webhook deliveries with their attempts and replay, and webhook endpoints, for a person signed in with an API key (docs/dashboard.md). The page holds no data: it calls this API with the key.',
    security: [],
    response: { '200': htmlResponse('The dashboard page.') },
  },
});

export const DASHBOARD_ASSET_ROUTE = defineRoute({
  method: 'GET',
  url: '/dashboard/assets/:name',
  schema: {
    operationId: 'getDashboardAsset',
    tags: ['Service'],
    summary: 'Scripts and stylesheet of the dashboard: not for API clients',
    description: "The dashboard's own files, served locally; 404 for any other name.",
    security: [],
    params: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', examples: ['tenant.js'] } },
    },
    response: {
      '200': { description: 'The asset.', headers: { 'x-request-id': ref('headers', 'XRequestId') } },
      '404': ref('responses', 'NotFound'),
    },
  },
});

/** The tenant side of the dashboard on the public port (docs/dashboard.md "How it is served"). */
export function registerDashboardRoutes(
  app: FastifyInstance,
  files: DashboardFiles = loadDashboardFiles('tenant'),
): void {
  app.route({
    ...routeOptions(DASHBOARD_PAGE_ROUTE),
    handler: async (_request, reply) =>
      reply.headers(dashboardHeaders('page')).type('text/html; charset=utf-8').send(files.page),
  });
  app.route<{ Params: ParamsOf<typeof DASHBOARD_ASSET_ROUTE> }>({
    ...routeOptions(DASHBOARD_ASSET_ROUTE),
    handler: async (request, reply) => {
      const asset = files.asset(request.params.name);
      if (!asset)
        throw apiError(
          'NotFoundError',
          `No dashboard asset named ${JSON.stringify(request.params.name.slice(0, 100))}.`,
        );
      return reply.headers(dashboardHeaders('asset')).type(asset.contentType).send(asset.body);
    },
  });
}
