import { createHmac } from 'node:crypto';
import { ERROR_TAGS } from '../errors/registry';
import { PUBLIC_ROUTES } from '../http/routes/table';
import { ERROR_BODY_SCHEMA } from '../http/schemas';
import { componentSchemas, refNamedSchemas, sharedSchemas } from './components';
import { EXAMPLE_EVENTS } from './examples';
import { pathsOf } from './paths';
import { TAGS, withErrorLinks } from './reference';
import {
  describeBodyField,
  example,
  jsonContent,
  ref,
  SANDBOX_SERVER_URL,
  SHARED_RESPONSES,
} from './responses';

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
 * Headers of every webhook the service sends (docs/api/webhooks.md "The event", "The signature"),
 * with the example event's values: its `Service-Signature` is the real HMAC of the example body
 * (JSON.stringify of EXAMPLE_EVENTS) under the secret `whsec_example` at t = 1795003200, so a
 * verifier can be tried on it.
 */
function webhookRequestParameters(eventType: keyof typeof EXAMPLE_EVENTS) {
  const body = JSON.stringify(EXAMPLE_EVENTS[eventType]);
  const t = 1795003200;
  const digest = createHmac('sha256', 'whsec_example').update(`${t}.${body}`).digest('hex');
  const examples: Record<string, string> = {
    'Service-Signature': `t=${t},v1=${digest}`,
    'x-event-id': EXAMPLE_EVENTS[eventType].event_id,
    'x-event-type': eventType,
  };
  return WEBHOOK_REQUEST_HEADERS.map((header) => ({ ...header, example: examples[header.name] }));
}

const WEBHOOK_REQUEST_HEADERS = [
  {
    name: 'Service-Signature',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^t=[0-9]+(,v1=[0-9a-f]{64})+$' },
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256>`: the digest is HMAC-SHA256 with your signing secret as key over ' +
      '`"<t>.<raw body>"` (the decimal t, a dot, the exact body bytes), in lowercase hex. During a secret rotation ' +
      'the header carries one `v1=` per secret still signing (the new one and, for its grace period, the previous ' +
      'one): accept the request when any of them matches. Verify before anything else: reject when |now − t| is over ' +
      '300 s, recompute the digest over the raw body and compare in constant time, and parse the JSON only after ' +
      'it verified (any change to the bytes breaks the signature). The signature is made anew for every attempt.',
  },
  {
    name: 'x-event-id',
    in: 'header',
    required: true,
    schema: { type: 'string', format: 'uuid' },
    description:
      "The envelope's `event_id`, readable before parsing: deduplicate on it (delivery is at least once).",
  },
  {
    name: 'x-event-type',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: "The envelope's `event_type`.",
  },
];

const WEBHOOK_RESPONSES = {
  '2XX': {
    description:
      'Received. Any 2xx stops the retries, also for a duplicate `event_id` (answer 2xx and ignore it). The body is not read.',
  },
  default: {
    description:
      'Any other status, or no answer in time: the delivery is retried on its schedule (standard 16 attempts ' +
      'over about 5.7 days, extended 17 over about 6.2 days, ±20% jitter), then `exhausted`. A failed signature check ' +
      'should be answered 4xx (401); the event can be sent again with POST /v1/webhook-deliveries/{id}/replay.',
  },
};

function webhookOperation(
  eventType: keyof typeof EXAMPLE_EVENTS,
  summary: string,
  description: string,
  schemaName: string,
) {
  return {
    post: {
      operationId: `webhook_${eventType.replace(/\./g, '_')}`,
      tags: ['Webhook events'],
      summary,
      description: `${description} ${WEBHOOK_SIGNATURE_DESCRIPTION}`,
      security: [],
      parameters: webhookRequestParameters(eventType),
      requestBody: {
        required: true,
        content: jsonContent(
          ref('schemas', schemaName),
          example('event', summary, EXAMPLE_EVENTS[eventType]),
        ),
      },
      responses: WEBHOOK_RESPONSES,
    },
  };
}

const WEBHOOK_SIGNATURE_DESCRIPTION =
  'Every attempt is a POST of this JSON envelope (docs/api/webhooks.md "The event"), signed with your ' +
  'tenant\'s signing secret in `Service-Signature` (docs/api/webhooks.md "The signature"): verify it over ' +
  'the raw body before parsing, deduplicate on `event_id`, answer 2xx.';

export function buildOpenApiDocument(opts: { serverUrl?: string } = {}) {
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
    paths: refNamedSchemas(withErrorLinks(pathsOf(PUBLIC_ROUTES), sharedResponses), namedSchemas),
    webhooks: refNamedSchemas(
      {
        'transaction.completed': webhookOperation(
          'transaction.completed',
          'A transaction completed',
          'Sent to every registered endpoint subscribed to `transaction.completed` (or `*`) and to the ' +
            "transaction's `callback_url`, when the payment settled. `data.result` carries the rail's " +
            'reference and `settledAt`; `data.error` is null.',
          'WebhookTransactionCompletedEvent',
        ),
        'transaction.failed': webhookOperation(
          'transaction.failed',
          'A transaction failed',
          'Sent to every registered endpoint subscribed to `transaction.failed` (or `*`) and to the ' +
            "transaction's `callback_url`, when the payment was definitively rejected or failed. " +
            '`data.error` carries `reason`, `code` (ISO 20022) and `partnerStatus`; `data.result` is null.',
          'WebhookTransactionFailedEvent',
        ),
        'webhook.ping': webhookOperation(
          'webhook.ping',
          'A test event from the operator',
          'Sent to one registered endpoint when the operator tests it (`payoutctl endpoint ping`), whatever its ' +
            'subscription; signed, retried and listed like any delivery. `transaction_id` of its delivery is null.',
          'WebhookPingEvent',
        ),
      },
      namedSchemas,
    ),
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
