import type { FastifyInstance, FastifyReply } from 'fastify';
import { loadApiPages } from '../../docs/api-pages';
import { createDocsAssets, DOCS_CSP, DOCS_INIT_SCRIPT } from '../../docs/assets';
import { errorCataloguePageHtml, referencePageHtml } from '../../docs/pages';
import { apiError } from '../../errors/api-error';
import { example, htmlResponse, okResponse, ref } from '../../openapi/responses';
import { defineRoute, type ParamsOf, routeOptions } from '../../openapi/route';

export const OPENAPI_DOCUMENT_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/openapi.json',
  schema: {
    operationId: 'getOpenApiDocument',
    tags: ['Service'],
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of this API, examples included; no key needed.',
    security: [],
    response: {
      '200': okResponse(
        'The OpenAPI 3.1 document.',
        { type: 'object' },
        false,
        example('document', 'This document (abridged)', {
          openapi: '3.1.0',
          info: { title: 'QR Payout API', version: '1' },
        }),
      ),
    },
  },
});

export const REFERENCE_PAGE_ROUTE = defineRoute({
  method: 'GET',
  url: '/docs',
  schema: {
    operationId: 'getReferencePage',
    tags: ['Service'],
    summary: 'API reference page (HTML, rendered from this document)',
    description:
      'Swagger UI over this document, served locally; "Try it out" sends the first example of each body.',
    security: [],
    response: { '200': htmlResponse('The reference page.') },
  },
});

export const ERROR_CATALOGUE_ROUTE = defineRoute({
  method: 'GET',
  url: '/docs/errors',
  schema: {
    operationId: 'getErrorCatalogue',
    tags: ['Service'],
    summary: 'Error catalogue (HTML): one anchor per error name, the target of docs_url',
    description:
      'Every error name with its status, when it happens and what to do; `/docs/errors#<name>` links to one.',
    security: [],
    response: { '200': htmlResponse('The error catalogue.') },
  },
});

export const SAMPLES_PAGE_ROUTE = defineRoute({
  method: 'GET',
  url: '/docs/samples',
  schema: {
    operationId: 'getSamplesPage',
    tags: ['Service'],
    summary: 'Samples (HTML): every operation in curl, TypeScript, Python and Go',
    description:
      'One section per operation API clients call, anchored by its operationId (`/docs/samples#pay`), with a curl command and a program through each SDK; the description of each operation links to its section.',
    security: [],
    response: { '200': htmlResponse('The samples page.') },
  },
});

export const API_PAGES_INDEX_ROUTE = defineRoute({
  method: 'GET',
  url: '/docs/api',
  schema: {
    operationId: 'getApiPagesIndex',
    tags: ['Service'],
    summary: 'The public API pages (HTML): their index',
    description:
      'docs/api/README.md rendered, with a link to every page of docs/api; the `docs/api/<page>.md` references of this document link to these pages.',
    security: [],
    response: { '200': htmlResponse('The index of the API pages.') },
  },
});

export const API_PAGE_ROUTE = defineRoute({
  method: 'GET',
  url: '/docs/api/:page',
  schema: {
    operationId: 'getApiPage',
    tags: ['Service'],
    summary: 'One public API page (HTML), such as idempotency',
    description: 'docs/api/<page>.md rendered to HTML; 404 for a name that is not a page.',
    security: [],
    params: {
      type: 'object',
      required: ['page'],
      properties: { page: { type: 'string', examples: ['idempotency'] } },
    },
    response: {
      '200': htmlResponse('The page.'),
      '404': ref('responses', 'NotFound'),
    },
  },
});

export const REFERENCE_PAGE_ASSET_ROUTE = defineRoute({
  method: 'GET',
  url: '/docs/assets/:name',
  schema: {
    operationId: 'getReferencePageAsset',
    tags: ['Service'],
    summary: 'Static assets of the reference page, served locally',
    description: 'Scripts and styles of the reference page.',
    security: [],
    params: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', examples: ['swagger-ui.css'] } },
    },
    response: {
      '200': { description: 'The asset.', headers: { 'x-request-id': ref('headers', 'XRequestId') } },
      '404': ref('responses', 'NotFound'),
    },
  },
});

/**
 * Public documentation: the OpenAPI document, the reference page (also where / leads) and its
 * assets, the error catalogue, the samples, the API pages (README "Served docs").
 */
export function registerDocsRoutes(
  app: FastifyInstance,
  deps: { openApiJson: string; samplesPageHtml: string },
): void {
  const assets = createDocsAssets();
  const referencePage = referencePageHtml();
  const errorsPage = errorCataloguePageHtml();
  const apiPages = loadApiPages();
  const sendPage = (reply: FastifyReply, html: string) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(html);

  // The base URL npm start prints, opened in a browser: the reference, not a 404.
  app.get('/', async (_request, reply) => reply.redirect('/docs', 302));
  app.route({
    ...routeOptions(OPENAPI_DOCUMENT_ROUTE),
    handler: async (_request, reply) => {
      reply.type('application/json; charset=utf-8');
      return deps.openApiJson;
    },
  });
  app.route({
    ...routeOptions(REFERENCE_PAGE_ROUTE),
    handler: async (_request, reply) => {
      reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP);
      return referencePage;
    },
  });
  app.route({
    ...routeOptions(ERROR_CATALOGUE_ROUTE),
    handler: async (_request, reply) => {
      reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP);
      return errorsPage;
    },
  });
  app.route({
    ...routeOptions(SAMPLES_PAGE_ROUTE),
    handler: async (_request, reply) => sendPage(reply, deps.samplesPageHtml),
  });
  app.route({
    ...routeOptions(API_PAGES_INDEX_ROUTE),
    handler: async (_request, reply) => sendPage(reply, apiPages.html('') ?? ''),
  });
  app.route<{ Params: ParamsOf<typeof API_PAGE_ROUTE> }>({
    ...routeOptions(API_PAGE_ROUTE),
    handler: async (request, reply) => {
      const html = apiPages.html(request.params.page);
      if (html === undefined)
        throw apiError(
          'NotFoundError',
          `No API page named ${JSON.stringify(request.params.page.slice(0, 100))}; the pages are listed at /docs/api.`,
        );
      return sendPage(reply, html);
    },
  });
  app.route<{ Params: ParamsOf<typeof REFERENCE_PAGE_ASSET_ROUTE> }>({
    ...routeOptions(REFERENCE_PAGE_ASSET_ROUTE),
    handler: async (request, reply) => {
      const name = request.params.name;
      if (name === 'init.js') {
        reply.type('application/javascript; charset=utf-8');
        return DOCS_INIT_SCRIPT;
      }
      const asset = await assets.get(name);
      if (!asset)
        throw apiError(
          'NotFoundError',
          `No documentation asset named ${JSON.stringify(name.slice(0, 100))}.`,
        );
      reply.type(asset.contentType).header('cache-control', 'public, max-age=3600');
      return asset.body;
    },
  });
}
