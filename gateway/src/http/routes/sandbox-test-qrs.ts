import { defaultExecuteWaitText } from '@qr-payout/platform/execute-wait';
import type { FastifyInstance } from 'fastify';
import { DOCS_CSP } from '../../docs/assets';
import { sandboxTestQrsPageHtml } from '../../docs/pages';
import { sandboxTestQrsDocument } from '../../docs/sandbox-test-qrs';
import { EXAMPLE_SANDBOX_TEST_QRS } from '../../openapi/examples';
import { example, okResponse } from '../../openapi/responses';
import { defineRoute, routeOptions } from '../../openapi/route';

/** The catalogue as GET /v1/sandbox/test-qrs sends it (docs/sandbox-test-qrs.md). */
const SANDBOX_TEST_QRS_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['test_amounts', 'payer', 'test_qrs'],
  properties: {
    test_amounts: { type: 'array', items: { type: 'object' } },
    payer: { type: 'object' },
    test_qrs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'country', 'scenario', 'description', 'qr_string', 'operation', 'expected'],
        properties: {
          id: { type: 'string' },
          country: { type: 'string' },
          scenario: { type: 'string' },
          description: { type: 'string' },
          qr_string: { type: ['string', 'null'] },
          how_to_get: { type: 'string' },
          operation: { type: 'string', enum: ['pay', 'resolve'] },
          amount: { type: 'number' },
          expected: { type: 'object', required: ['http_status'] },
        },
      },
    },
  },
} as const;

export const LIST_SANDBOX_TEST_QRS_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/sandbox/test-qrs',
  schema: {
    operationId: 'listSandboxTestQrs',
    tags: ['Sandbox'],
    summary: 'Sandbox test QR codes and test amounts',
    description:
      "Merchant QR codes per country and scenario (static, amountless, dynamic Pix, each outcome amount, bad CRC, low confidence), each with the operation to send it to and the expected result, plus the test amounts: the last two digits of the amount pick the sandbox partner's answer " +
      `(51 failed AC03, 52 completed by polling, 53 failed AM04, 54 slow: the pay waits ${defaultExecuteWaitText()}, then answers processing). ` +
      'Public documentation, no key needed; also as the page `/docs/sandbox-test-qrs`. How to use them: docs/api/sandbox.md "How to use them".',
    security: [],
    response: {
      '200': okResponse(
        'The catalogue.',
        SANDBOX_TEST_QRS_RESPONSE_SCHEMA,
        false,
        example('catalogue', 'The catalogue (abridged)', EXAMPLE_SANDBOX_TEST_QRS),
      ),
    },
  },
});

/**
 * The sandbox test QR codes (docs/sandbox-test-qrs.md): GET /v1/sandbox/test-qrs as JSON and
 * /docs/sandbox-test-qrs as a page. Public, without an API key, like the rest of the docs: test
 * data is documentation, and it is what a newcomer reads before having a key.
 */
export function registerSandboxTestQrsRoutes(app: FastifyInstance): void {
  const json = JSON.stringify(sandboxTestQrsDocument());
  const page = sandboxTestQrsPageHtml();
  app.route({
    ...routeOptions(LIST_SANDBOX_TEST_QRS_ROUTE),
    handler: async (_request, reply) => {
      reply.type('application/json; charset=utf-8');
      return json;
    },
  });
  app.get('/docs/sandbox-test-qrs', async (_request, reply) => {
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP);
    return page;
  });
}
