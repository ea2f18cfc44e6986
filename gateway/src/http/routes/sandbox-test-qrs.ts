import type { FastifyInstance } from 'fastify';
import { DOCS_CSP } from '../../docs/assets';
import { sandboxTestQrsPageHtml } from '../../docs/pages';
import { sandboxTestQrsDocument } from '../../docs/sandbox-test-qrs';

/**
 * The sandbox test QR codes (docs/sandbox-test-qrs.md): GET /v1/sandbox/test-qrs as JSON and
 * /docs/sandbox-test-qrs as a page. Public, without an API key, like the rest of the docs: test
 * data is documentation, and it is what a newcomer reads before having a key.
 */
export function registerSandboxTestQrsRoutes(app: FastifyInstance): void {
  const json = JSON.stringify(sandboxTestQrsDocument());
  const page = sandboxTestQrsPageHtml();
  app.get('/v1/sandbox/test-qrs', async (_request, reply) => {
    reply.type('application/json; charset=utf-8');
    return json;
  });
  app.get('/docs/sandbox-test-qrs', async (_request, reply) => {
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP);
    return page;
  });
}
