import { createHmac } from 'node:crypto';
import { RAILS } from '@qr-payout/platform/partner-protocol';
import { ERROR_TAGS } from '../errors/registry';
import { PUBLIC_ROUTES } from '../http/routes/table';
import { ERROR_BODY_SCHEMA } from '../http/schemas';
import { componentSchemas, refNamedSchemas, sharedSchemas } from './components';
import {
  EXAMPLE_DELIVERY_ID,
  EXAMPLE_EVENTS,
  EXAMPLE_PARTNER_CALLBACK,
  EXAMPLE_REPLAYED_DELIVERY,
  EXAMPLE_REQUEST_ID,
} from './examples';
import { pathsOf } from './paths';
import { TAGS, withErrorLinks } from './reference';
import {
  AUTHENTICATED_ERRORS,
  BODY_ERRORS,
  describeBodyField,
  describeTags,
  errorResponse,
  example,
  HEALTH_OK,
  htmlResponse,
  jsonContent,
  okResponse,
  RATE_LIMIT_HEADERS,
  REPLAY_TOO_MANY,
  ref,
  registryErrorResponse,
  SANDBOX_SERVER_URL,
  SHARED_RESPONSES,
  withRequestId,
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

const DELIVERY_ID_PARAMETER = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  example: EXAMPLE_DELIVERY_ID,
  description: 'Delivery id (`whd_`).',
};

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

/**
 * Where each path stands in the document while some are still written here: the generated ones
 * (the route table's) and these, merged in the order clients were generated from.
 */
const PATH_ORDER = [
  '/v1/schemes',
  '/v1/fx/currencies',
  '/v1/resolve',
  '/v1/execute',
  '/v1/pay',
  '/v1/partner/callbacks/{rail}',
  '/v1/transactions',
  '/v1/instructions/{id}',
  '/v1/transactions/{id}',
  '/v1/webhook-endpoints',
  '/v1/webhook-deliveries',
  '/v1/webhook-deliveries/{id}',
  '/v1/webhook-deliveries/{id}/replay',
  '/v1/openapi.json',
  '/docs',
  '/docs/errors',
  '/docs/assets/{name}',
  '/healthz',
  '/readyz',
  '/v1/sandbox/test-qrs',
];

function inDocumentOrder<W extends Record<string, unknown>>(generated: object, written: W): W {
  const all: Record<string, unknown> = { ...written, ...generated };
  return Object.fromEntries(PATH_ORDER.filter((path) => path in all).map((path) => [path, all[path]])) as W;
}

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
    paths: refNamedSchemas(
      withErrorLinks(
        inDocumentOrder(pathsOf(PUBLIC_ROUTES), {
          '/v1/partner/callbacks/{rail}': {
            post: {
              operationId: 'partnerCallback',
              tags: ['Partners'],
              summary: "Partner callback (for the rails' partners, not for API clients)",
              description:
                'Where a rail partner reports the terminal state of a payout (docs/partner-callbacks.md). No API key: the ' +
                '`Partner-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`) authenticates ' +
                'it; a timestamp older than 5 minutes or more than 1 minute ahead is refused. The 200 is sent only after the ' +
                'transaction was updated, so any other status means: retry later.',
              security: [],
              parameters: [
                {
                  name: 'rail',
                  in: 'path',
                  required: true,
                  example: 'pix',
                  schema: {
                    type: 'string',
                    // Every rail's partner calls back: the partner protocol's one rail list.
                    enum: [...RAILS],
                  },
                },
                {
                  name: 'Partner-Signature',
                  in: 'header',
                  required: true,
                  schema: { type: 'string' },
                  example: `t=1795003200,v1=${'0'.repeat(64)}`,
                  description:
                    '`t=<unix seconds>,v1=<hex digest>`; several v1 values are accepted during a secret rotation.',
                },
              ],
              requestBody: {
                required: true,
                content: jsonContent(
                  ref('schemas', 'PartnerPayout'),
                  example('settled', 'A settled payout', EXAMPLE_PARTNER_CALLBACK),
                ),
              },
              responses: {
                '200': okResponse(
                  'Applied (or a non-terminal status, acknowledged).',
                  ref('schemas', 'PartnerCallbackResponse'),
                  false,
                  example('received', 'Applied', { received: true, request_id: EXAMPLE_REQUEST_ID }),
                ),
                '400': errorResponse(
                  ['ValidationError'],
                  `${describeTags(['ValidationError'])}: the body is not a payout resource.`,
                ),
                '401': errorResponse(
                  ['AuthError'],
                  `${describeTags(['AuthError'])}: Partner-Signature missing, invalid or out of tolerance.`,
                ),
                '404': errorResponse(
                  ['NotFoundError'],
                  `${describeTags(['NotFoundError'])}: unknown rail or transaction.`,
                ),
                '413': errorResponse(
                  ['PayloadTooLarge'],
                  `${describeTags(['PayloadTooLarge'])}: body over 16 KiB.`,
                ),
                '415': errorResponse(
                  ['UnsupportedMediaType'],
                  `${describeTags(['UnsupportedMediaType'])}: a body that is not JSON.`,
                ),
                '500': ref('responses', 'InternalError'),
                '503': ref('responses', 'ServiceUnavailable'),
              },
            },
          },
          '/v1/webhook-deliveries/{id}/replay': {
            post: {
              operationId: 'replayWebhookDelivery',
              tags: ['Webhook deliveries'],
              summary: 'Send a webhook delivery again',
              description:
                'Re-enqueues a `delivered`, `failed` or `exhausted` delivery: it becomes `pending` with ' +
                '`attempts` 0 and `next_attempt_at` now, and the worker sends the same event (same `event_id`, same body, a ' +
                'fresh signature) on its next tick. Replaying a `delivered` delivery is a supported re-send: receivers ' +
                'deduplicate on `event_id`. A `pending` or `delivering` delivery is 409 `DeliveryInFlight`; a replay ' +
                'sooner than 10 seconds (the default) after the last replay of the same delivery is 429 ' +
                '`DeliveryReplayTooSoon` with Retry-After. No body is needed; an empty body or `{}` is accepted.',
              parameters: [DELIVERY_ID_PARAMETER],
              requestBody: {
                required: false,
                content: jsonContent(
                  ref('schemas', 'WebhookDeliveryReplayRequest'),
                  example('empty', 'No fields', {}),
                ),
              },
              responses: {
                '200': okResponse(
                  'The delivery after the replay, `pending`.',
                  ref('schemas', 'WebhookDeliveryReplayResponse'),
                  true,
                  example('pending', 'Re-enqueued', withRequestId('delivery', EXAMPLE_REPLAYED_DELIVERY)),
                ),
                '400': errorResponse(
                  ['ValidationError'],
                  `${describeTags(['ValidationError'])}: a body other than none or \`{}\`.`,
                  RATE_LIMIT_HEADERS,
                ),
                '404': errorResponse(
                  ['NotFoundError'],
                  `${describeTags(['NotFoundError'])}: no such delivery for this key.`,
                  RATE_LIMIT_HEADERS,
                ),
                '409': registryErrorResponse('DeliveryInFlight', RATE_LIMIT_HEADERS),
                '413': BODY_ERRORS['413'],
                '415': BODY_ERRORS['415'],
                ...AUTHENTICATED_ERRORS,
                ...REPLAY_TOO_MANY,
              },
            },
          },
          '/v1/openapi.json': {
            get: {
              operationId: 'getOpenApiDocument',
              tags: ['Service'],
              summary: 'This document',
              description: 'The OpenAPI 3.1 document of this API, examples included; no key needed.',
              security: [],
              responses: {
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
          },
          '/docs': {
            get: {
              operationId: 'getReferencePage',
              tags: ['Service'],
              summary: 'API reference page (HTML, rendered from this document)',
              description:
                'Swagger UI over this document, served locally; "Try it out" sends the first example of each body.',
              security: [],
              responses: { '200': htmlResponse('The reference page.') },
            },
          },
          '/docs/errors': {
            get: {
              operationId: 'getErrorCatalogue',
              tags: ['Service'],
              summary: 'Error catalogue (HTML): one anchor per error name, the target of docs_url',
              description:
                'Every error name with its status, when it happens and what to do; `/docs/errors#<name>` links to one.',
              security: [],
              responses: { '200': htmlResponse('The error catalogue.') },
            },
          },
          '/docs/assets/{name}': {
            get: {
              operationId: 'getReferencePageAsset',
              tags: ['Service'],
              summary: 'Static assets of the reference page, served locally',
              description: 'Scripts and styles of the reference page.',
              security: [],
              parameters: [
                {
                  name: 'name',
                  in: 'path',
                  required: true,
                  schema: { type: 'string' },
                  example: 'swagger-ui.css',
                },
              ],
              responses: {
                '200': {
                  description: 'The asset.',
                  headers: { 'x-request-id': ref('headers', 'XRequestId') },
                },
                '404': ref('responses', 'NotFound'),
              },
            },
          },
          '/healthz': {
            get: {
              operationId: 'healthz',
              tags: ['Service'],
              summary: 'Liveness: the process is up',
              description: 'Answers 200 while the process runs; for orchestrators.',
              security: [],
              responses: { '200': okResponse('Alive.', ref('schemas', 'Health'), false, HEALTH_OK) },
            },
          },
          '/readyz': {
            get: {
              operationId: 'readyz',
              tags: ['Service'],
              summary: 'Readiness: 503 while shutting down or without the database',
              description:
                'Answers 200 when the gateway can take requests; 503 while it drains or cannot reach its database.',
              security: [],
              responses: {
                '200': okResponse('Ready.', ref('schemas', 'Health'), false, HEALTH_OK),
                '503': ref('responses', 'ServiceUnavailable'),
              },
            },
          },
          '/v1/sandbox/test-qrs': {
            get: {
              operationId: 'listSandboxTestQrs',
              tags: ['Sandbox'],
              summary: 'Sandbox test QR codes and test amounts (docs/sandbox-test-qrs.md)',
              description:
                "Merchant QR codes per country and scenario (static, amountless, dynamic Pix, each outcome amount, bad CRC, low confidence), each with the operation to send it to and the expected result, plus the test amounts: the last two digits of the amount pick the sandbox partner's answer (51 failed AC03, 52 completed by polling, 53 failed AM04, 54 slow). Public documentation, no key needed; also as the page `/docs/sandbox-test-qrs`.",
              security: [],
              responses: {
                '200': okResponse(
                  'The catalogue.',
                  {
                    type: 'object',
                    required: ['test_amounts', 'payer', 'test_qrs'],
                    properties: {
                      test_amounts: { type: 'array', items: { type: 'object' } },
                      payer: { type: 'object' },
                      test_qrs: {
                        type: 'array',
                        items: {
                          type: 'object',
                          required: [
                            'id',
                            'country',
                            'scenario',
                            'description',
                            'qr_string',
                            'operation',
                            'expected',
                          ],
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
                  },
                  false,
                  example('catalogue', 'The catalogue (abridged)', {
                    test_amounts: [
                      {
                        ends_in: '51',
                        example: 20.51,
                        transaction_status: 'failed',
                        error_code: 'AC03',
                        description: 'Refused by the partner at once.',
                      },
                    ],
                    payer: {
                      payer_name: 'Jane Doe',
                      payer_account: 'US-0001-1234567',
                      payer_tax_id: 'X12345678',
                      payer_country: 'US',
                      payer_id_type: 'passport',
                    },
                    test_qrs: [
                      {
                        id: 'br-bad-crc',
                        country: 'BR',
                        scenario: 'bad_crc',
                        description: 'A static Pix code with a wrong CRC.',
                        qr_string:
                          '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-426614174000520458125303986540512.345802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2E000163040000',
                        operation: 'pay',
                        expected: { http_status: 422, error: 'QrDecodeError' },
                      },
                    ],
                  }),
                ),
              },
            },
          },
        }),
        sharedResponses,
      ),
      namedSchemas,
    ),
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
