import type { FastifyInstance } from 'fastify';
import { createDocsAssets, DOCS_CSP, DOCS_INIT_SCRIPT } from '../../docs/assets';
import { errorCataloguePageHtml, referencePageHtml } from '../../docs/pages';
import { apiError } from '../../errors/api-error';

/** Public documentation: the OpenAPI document, the reference page (also where / leads) and its assets, the error catalogue. */
export function registerDocsRoutes(app: FastifyInstance, deps: { openApiJson: string }): void {
  const assets = createDocsAssets();
  const referencePage = referencePageHtml();
  const errorsPage = errorCataloguePageHtml();

  // The base URL npm start prints, opened in a browser: the reference, not a 404.
  app.get('/', async (_request, reply) => reply.redirect('/docs', 302));
  app.get('/v1/openapi.json', async (_request, reply) => {
    reply.type('application/json; charset=utf-8');
    return deps.openApiJson;
  });
  app.get('/docs', async (_request, reply) => {
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP);
    return referencePage;
  });
  app.get('/docs/errors', async (_request, reply) => {
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP);
    return errorsPage;
  });
  app.get<{ Params: { name: string } }>('/docs/assets/:name', async (request, reply) => {
    const name = request.params.name;
    if (name === 'init.js') {
      reply.type('application/javascript; charset=utf-8');
      return DOCS_INIT_SCRIPT;
    }
    const asset = await assets.get(name);
    if (!asset)
      throw apiError('NotFoundError', `No documentation asset named ${JSON.stringify(name.slice(0, 100))}.`);
    reply.type(asset.contentType).header('cache-control', 'public, max-age=3600');
    return asset.body;
  });
}
