import { apiPageNames, linkDescriptionReferences } from '../docs/doc-references';
import { withSamplesLinks } from '../docs/samples/link';
import { ERROR_TAGS } from '../errors/registry';
import { SHARED_RESPONSES } from '../http/routes/shared-responses';
import { PUBLIC_ROUTES } from '../http/routes/table';
import { ERROR_BODY_SCHEMA } from '../http/schemas';
import { WEBHOOK_EVENTS } from '../http/webhook-events';
import { componentSchemas, refNamedSchemas, sharedSchemas } from './components';
import { pathsOf } from './paths';
import { TAGS, withErrorLinks } from './reference';
import { describeBodyField, SANDBOX_SERVER_URL } from './responses';
import { webhooksOf } from './webhooks';

// The OpenAPI 3.1 document of every public route, built from the same JSON Schemas the routes
// validate with. test/openapi.int.test.ts checks real responses against it, status by status;
// document.test.ts checks every example against its schema and every operation's tags and links.

export { SANDBOX_SERVER_URL };

/**
 * The API's base URL from PUBLIC_DOCS_URL (`<base>/docs`, where the gateway serves its reference);
 * a docs URL elsewhere says nothing about the API's, so the sandbox's is documented then.
 */
export function serverUrlFromDocsUrl(publicDocsUrl: string | undefined): string {
  const match = publicDocsUrl?.match(/^(https?:\/\/[^?#]+?)\/docs\/?$/);
  return match?.[1] ?? SANDBOX_SERVER_URL;
}

/**
 * The document, its `docs/api/<page>.md` references linked to the pages the gateway serves
 * (README "Served docs"), as Swagger UI on /docs and the generated clients show them.
 */
export function buildOpenApiDocument(opts: { serverUrl?: string } = {}) {
  return linkDescriptionReferences(documentOf(opts), new Set(apiPageNames()));
}

function documentOf(opts: { serverUrl?: string }) {
  const sharedResponses = SHARED_RESPONSES;
  const namedSchemas = componentSchemas({
    ...ERROR_BODY_SCHEMA,
    properties: {
      ...ERROR_BODY_SCHEMA.properties,
      _tag: { type: 'string', enum: ERROR_TAGS },
      type: { type: 'string', enum: ERROR_TAGS },
      transaction_id: {
        ...ERROR_BODY_SCHEMA.properties.transaction_id,
        description: describeBodyField('transaction_id'),
      },
    },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'QR Payout API',
      version: '1',
      description:
        'Decode Latin American merchant QR codes, quote FX and pay merchants over instant rails. ' +
        'Every response carries `x-request-id`; every error has the body `ErrorBody` (see /docs/errors). ' +
        'A path of this document called with a method it does not have answers 405 `MethodNotAllowed` with an `Allow` header (components.responses.MethodNotAllowed). ' +
        'Authenticated responses carry the rate-limit headers (100 requests per minute per key by default). ' +
        'Our own words on the contract (resources and states, errors, idempotency, rate limits, FX and ' +
        'confidence, webhooks) are in docs/api/ of the repository.',
    },
    // The same origin first: Swagger UI on /docs then calls the gateway it was loaded from, whatever
    // host name the reader used (localhost, 127.0.0.1, a forwarded port), with no CORS in the way;
    // the absolute URL is there for tools that read the document from a file.
    servers: [
      { url: '/', description: 'The gateway that served this document' },
      {
        url: opts.serverUrl ?? SANDBOX_SERVER_URL,
        description:
          opts.serverUrl && opts.serverUrl !== SANDBOX_SERVER_URL
            ? 'This deployment'
            : 'The sandbox (`npm start`)',
      },
    ],
    tags: TAGS,
    security: [{ ApiKey: [] }],
    paths: refNamedSchemas(
      withSamplesLinks(withErrorLinks(pathsOf(PUBLIC_ROUTES), sharedResponses)),
      namedSchemas,
    ),
    webhooks: refNamedSchemas(webhooksOf(WEBHOOK_EVENTS), namedSchemas),
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your API key.' },
      },
      schemas: sharedSchemas(namedSchemas),
      headers: {
        XRequestId: {
          description: 'UUID of this request, also request_id in bodies.',
          schema: { type: 'string', format: 'uuid' },
        },
        XRateLimitLimit: {
          description: 'Requests allowed per 60-second window for the key.',
          schema: { type: 'integer' },
        },
        XRateLimitRemaining: {
          description: 'Requests left in the current window.',
          schema: { type: 'integer' },
        },
        XRateLimitReset: {
          description: 'Unix time (seconds) when the oldest counted request leaves the window.',
          schema: { type: 'integer' },
        },
        RateLimitPolicy: {
          description: 'IETF draft structured field, for example `"default";q=100;w=60`.',
          schema: { type: 'string' },
        },
        RateLimit: {
          description: 'IETF draft structured field, for example `"default";r=99;t=60`.',
          schema: { type: 'string' },
        },
        IdempotentReplayed: {
          description:
            '`true` when this is the stored response of an earlier request with the same Idempotency-Key and body: nothing ran again. Absent otherwise.',
          required: false,
          schema: { type: 'string', enum: ['true'] },
        },
        Allow: {
          description: 'The methods the path has, comma-separated (RFC 9110).',
          required: true,
          schema: { type: 'string' },
        },
        RetryAfter: {
          description: 'Seconds to wait before retrying.',
          schema: { type: 'integer', minimum: 1 },
        },
      },
      responses: sharedResponses,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
