import { RAILS } from '@qr-payout/platform/partner-protocol';
import { ERROR_REGISTRY, ERROR_TAGS, type ErrorEntry } from '../errors/registry';
import { DELIVERY_LIST_QUERY_PARAMETERS } from '../http/delivery-list-query';
import { TRANSACTION_ID_PATTERN } from '../http/ids';
import { PUBLIC_DELIVERY_STATUSES } from '../http/presenters/webhook-delivery';
import {
  ERROR_BODY_SCHEMA,
  EXECUTE_REQUEST_SCHEMA,
  EXECUTE_RESPONSE_SCHEMA,
  HEALTH_RESPONSE_SCHEMA,
  INSTRUCTION_RESPONSE_SCHEMA,
  INSTRUCTION_SCHEMA,
  PARTNER_CALLBACK_RESPONSE_SCHEMA,
  PARTNER_CALLBACK_SCHEMA,
  PAY_REQUEST_SCHEMA,
  PAY_RESPONSE_SCHEMA,
  QUOTE_SCHEMA,
  RESOLVE_REQUEST_SCHEMA,
  RESOLVE_RESPONSE_SCHEMA,
  SCHEME_SCHEMA,
  SCHEMES_RESPONSE_SCHEMA,
  TRANSACTION_RESPONSE_SCHEMA,
  TRANSACTION_SCHEMA,
  TRANSACTIONS_RESPONSE_SCHEMA,
  WEBHOOK_DELIVERIES_RESPONSE_SCHEMA,
  WEBHOOK_DELIVERY_ATTEMPT_SCHEMA,
  WEBHOOK_DELIVERY_REPLAY_REQUEST_SCHEMA,
  WEBHOOK_DELIVERY_REPLAY_RESPONSE_SCHEMA,
  WEBHOOK_DELIVERY_RESPONSE_SCHEMA,
  WEBHOOK_DELIVERY_SCHEMA,
  WEBHOOK_DELIVERY_WITH_ATTEMPTS_SCHEMA,
  WEBHOOK_ENDPOINT_SCHEMA,
  WEBHOOK_ENDPOINTS_RESPONSE_SCHEMA,
  WEBHOOK_PING_EVENT_SCHEMA,
  WEBHOOK_TRANSACTION_COMPLETED_EVENT_SCHEMA,
  WEBHOOK_TRANSACTION_FAILED_EVENT_SCHEMA,
} from '../http/schemas';
import {
  PUBLIC_TRANSACTION_STATUSES,
  TRANSACTION_LIST_QUERY_PARAMETERS,
} from '../http/transaction-list-query';

// The OpenAPI 3.1 document of every public route, built from the same JSON Schemas the routes
// validate with. test/openapi.int.test.ts checks real responses against it, status by status.

const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': ref('headers', 'XRateLimitLimit'),
  'x-ratelimit-remaining': ref('headers', 'XRateLimitRemaining'),
  'x-ratelimit-reset': ref('headers', 'XRateLimitReset'),
  'RateLimit-Policy': ref('headers', 'RateLimitPolicy'),
  RateLimit: ref('headers', 'RateLimit'),
};

function jsonContent(schema: object) {
  return { 'application/json': { schema } };
}

function errorResponse(description: string, extraHeaders: Record<string, object> = {}) {
  return {
    description,
    headers: { 'x-request-id': ref('headers', 'XRequestId'), ...extraHeaders },
    content: jsonContent(ref('schemas', 'ErrorBody')),
  };
}

function okResponse(
  description: string,
  schema: object,
  authenticated: boolean,
  extraHeaders: Record<string, object> = {},
) {
  return {
    description,
    headers: {
      'x-request-id': ref('headers', 'XRequestId'),
      ...(authenticated ? RATE_LIMIT_HEADERS : {}),
      ...extraHeaders,
    },
    content: jsonContent(schema),
  };
}

function htmlResponse(description: string) {
  return {
    description,
    headers: { 'x-request-id': ref('headers', 'XRequestId') },
    content: { 'text/html': { schema: { type: 'string' } } },
  };
}

function describeTags(tags: string[]): string {
  return tags.map((t) => `\`${t}\``).join(', ');
}

/** What an extra error body field means, per error that declares it (the registry's `bodyFields`). */
function describeBodyField(field: string): string {
  const uses = ERROR_TAGS.flatMap((tag) => {
    const meaning = (ERROR_REGISTRY[tag] as ErrorEntry).bodyFields?.[field];
    return meaning === undefined ? [] : [`${describeTags([tag])}: ${meaning}`];
  });
  return uses.join(' ');
}

/** Responses every authenticated route can give. */
const AUTHENTICATED_ERRORS = {
  '401': ref('responses', 'Unauthorized'),
  '429': ref('responses', 'TooManyRequests'),
  '500': ref('responses', 'InternalError'),
  '503': ref('responses', 'ServiceUnavailable'),
};

/** The 503 of the routes that decode a QR: our outage, or the merchant PSP's for a dynamic QR. */
const QR_ROUTE_UNAVAILABLE = {
  '503': errorResponse(
    `${describeTags(['ServiceUnavailable'])}: ${ERROR_REGISTRY.ServiceUnavailable.description} ` +
      `${describeTags(['QrLocationUnavailable'])}: ${ERROR_REGISTRY.QrLocationUnavailable.description} ` +
      'Both are retryable after the Retry-After header.',
    { 'Retry-After': ref('headers', 'RetryAfter') },
  ),
};

/** The Idempotency-Key parameter of the payment operations (spec §8). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  description:
    'Unique per payment attempt (a UUID is a good choice), at most 255 printable ASCII characters, scoped to your tenant. ' +
    'A retry with the same key and the same body never pays twice and gets the first response back; the key can be reused with any body after 24 hours.',
};

const IDEMPOTENCY_DESCRIPTION =
  'Idempotency (spec §8): a missing key is 400 `IdempotencyKeyMissing`; the same key and body while the first request ' +
  'is still running is 409 `IdempotencyInProgress` (retry shortly); the same key and body after it finished returns the ' +
  "first response with `Idempotent-Replayed: true` (with this request's `request_id`); the same key with another body is " +
  '400 `IdempotencyConflict`. Only outcomes are kept: a 5xx, or a refusal before anything ran (validation, QR or amount ' +
  'errors), is not stored, so the same key can be retried. The body fingerprint is the SHA-256 of the canonical JSON of ' +
  'the parsed body (key order and spacing do not matter).';

/** Marks a response as a replay; only on replays, so not required. */
const IDEMPOTENT_REPLAYED_HEADER = { 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') };

/** Responses of routes that take a JSON body. */
const BODY_ERRORS = {
  '400': ref('responses', 'BadRequest'),
  '413': ref('responses', 'PayloadTooLarge'),
  '415': ref('responses', 'UnsupportedMediaType'),
};

/** limit and cursor, the same on every newest-first list. */
const PAGING_PARAMETER_DEFINITIONS = {
  limit: {
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    description: 'Page size, 1 to 100 (default 20).',
  },
  cursor: {
    schema: { type: 'string' },
    description:
      '`next_cursor` of the previous page, as it was (opaque). Keep the same filters while paging.',
  },
};

/** The query of GET /v1/webhook-deliveries; the names are the parser's own list. */
const DELIVERY_LIST_PARAMETER_DEFINITIONS: Record<(typeof DELIVERY_LIST_QUERY_PARAMETERS)[number], object> = {
  transaction_id: {
    schema: { type: 'string', pattern: TRANSACTION_ID_PATTERN },
    description: 'Only deliveries of this transaction (`txn_` id).',
  },
  status: {
    schema: { type: 'string', enum: PUBLIC_DELIVERY_STATUSES },
    description: 'Only deliveries in this state (spec §3.2). Combines with `transaction_id`.',
  },
  ...PAGING_PARAMETER_DEFINITIONS,
};

/** Optional query parameters in the parser's order, from their definitions. */
function queryParameters<N extends string>(names: readonly N[], definitions: Record<N, object>) {
  return names.map((name) => ({ name, in: 'query', required: false, ...definitions[name] }));
}

const DELIVERY_LIST_PARAMETERS = queryParameters(
  DELIVERY_LIST_QUERY_PARAMETERS,
  DELIVERY_LIST_PARAMETER_DEFINITIONS,
);

/** The query of GET /v1/transactions; the names are the parser's own list. */
const TRANSACTION_LIST_PARAMETER_DEFINITIONS: Record<
  (typeof TRANSACTION_LIST_QUERY_PARAMETERS)[number],
  object
> = {
  status: {
    schema: { type: 'string', enum: PUBLIC_TRANSACTION_STATUSES },
    description: 'Only transactions in this state.',
  },
  created_gte: {
    schema: { type: 'string', format: 'date-time' },
    description:
      'Only transactions created at or after this instant (ISO 8601 with a time zone, at most milliseconds; a calendar date that exists).',
  },
  created_lt: {
    schema: { type: 'string', format: 'date-time' },
    description: 'Only transactions created before this instant; must be later than `created_gte`.',
  },
  ...PAGING_PARAMETER_DEFINITIONS,
};

const TRANSACTION_LIST_PARAMETERS = queryParameters(
  TRANSACTION_LIST_QUERY_PARAMETERS,
  TRANSACTION_LIST_PARAMETER_DEFINITIONS,
);

const DELIVERY_ID_PARAMETER = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'Delivery id (`whd_`).',
};

/** Headers of every webhook the service sends (spec §5, §6). */
const WEBHOOK_REQUEST_PARAMETERS = [
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
      "The envelope's `event_id`, readable before parsing: deduplicate on it (at-least-once, spec §6.3).",
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
      'Any other status, or no answer in time: the delivery is retried on its schedule (spec §6.4: standard 16 attempts ' +
      'over about 5.7 days, extended 17 over about 6.2 days, ±20% jitter), then `exhausted`. A failed signature check ' +
      'should be answered 4xx (401); the event can be sent again with POST /v1/webhook-deliveries/{id}/replay.',
  },
};

function webhookOperation(eventType: string, summary: string, description: string, schemaName: string) {
  return {
    post: {
      operationId: `webhook_${eventType.replace(/\./g, '_')}`,
      summary,
      description,
      security: [],
      parameters: WEBHOOK_REQUEST_PARAMETERS,
      requestBody: { required: true, content: jsonContent(ref('schemas', schemaName)) },
      responses: WEBHOOK_RESPONSES,
    },
  };
}

export function buildOpenApiDocument(opts: { serverUrl?: string } = {}) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'QR Payout API',
      version: '1',
      description:
        'Decode Latin American merchant QR codes, quote FX and pay merchants over instant rails. ' +
        'Every response carries `x-request-id`; every error has the body `ErrorBody` (see /docs/errors). ' +
        'Authenticated responses carry the rate-limit headers (100 requests per minute per key by default).',
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    security: [{ ApiKey: [] }],
    paths: {
      '/v1/schemes': {
        get: {
          operationId: 'listSchemes',
          summary: 'List the accepted QR schemes',
          description:
            'The schemes the decoder recognizes (spec §4.5), with country, currency, rail, the payer fields execute needs, ' +
            'the payer documents payout checks (`payer_identity`: by issuing country and type, and which payer counts as a resident) ' +
            'and the minimum and maximum amount its rail accepts (`min_amount`, `max_amount`; a positive amount outside them is 422 `AmountOutOfRange` at resolve and pay). ' +
            'Cached by the gateway for SCHEMES_CACHE_TTL_MS (60 s by default): the list only changes with a decoder release or a change of payout limits.',
          responses: {
            '200': okResponse('The scheme catalogue.', ref('schemas', 'SchemesResponse'), true),
            ...AUTHENTICATED_ERRORS,
          },
        },
      },
      '/v1/resolve': {
        post: {
          operationId: 'resolve',
          summary: 'Resolve a QR code into a payment instruction',
          description:
            'Decodes the QR text and stores a payment instruction (spec §4.1). With `wallet_currency` ' +
            'different from the payment currency, an FX quote is made and the instruction also carries ' +
            '`wallet_currency`, `wallet_amount` (what the user pays) and `quote`; with `wallet_currency` equal ' +
            'to the payment currency, `wallet_amount` equals `amount` and `quote` is null. Without ' +
            '`wallet_currency` the instruction has exactly the spec §2.1 fields. `amount` is only for QR codes ' +
            'that carry none (422 `AmountRequired` when missing for those, 422 `AmountMismatch` when it differs ' +
            "from the QR's); a positive amount outside the scheme's `min_amount`..`max_amount` (GET /v1/schemes) is 422 " +
            '`AmountOutOfRange`; zero or a negative amount, or one a JSON number cannot hold exactly, is 400 `ValidationError`. ' +
            'An optional field sent as null is taken as not sent. ' +
            'A `wallet_currency` that is malformed or not quoted is 400 `ValidationError`.',
          requestBody: { required: true, content: jsonContent(ref('schemas', 'ResolveRequest')) },
          responses: {
            '200': okResponse('The stored instruction.', ref('schemas', 'ResolveResponse'), true),
            ...BODY_ERRORS,
            '422': errorResponse(
              `The QR cannot be paid as sent: ${describeTags(['QrDecodeError', 'AmountMismatch', 'AmountRequired', 'AmountOutOfRange'])}.`,
              RATE_LIMIT_HEADERS,
            ),
            ...AUTHENTICATED_ERRORS,
            ...QR_ROUTE_UNAVAILABLE,
          },
        },
      },
      '/v1/execute': {
        post: {
          operationId: 'execute',
          summary: 'Execute a resolved instruction',
          description:
            'Pays the instruction from POST /v1/resolve (spec §4.2) and answers the transaction. The call waits a bounded time ' +
            '(EXECUTE_WAIT_MS, 8 s by default) for a terminal state; otherwise the transaction is `pending` or `processing` and ' +
            'the outcome comes by webhook or GET /v1/transactions/{id}. A rejected payment is a 200 with status `failed` and ' +
            '`error` set. An instruction executes once: another key is 409 `InstructionAlreadyExecuted`, whose body adds ' +
            '`transaction_id` (the transaction that executed it); a dynamic QR charge that another instruction paid or is ' +
            'paying is 409 `ChargeAlreadyPaid`, whose body adds `transaction_id` when that payment is yours; an expired FX quote ' +
            'is 409 `QuoteExpired` (resolve again). `payer_tax_id` is the payer’s own identifier in their own country: with ' +
            '`payer_country` (and `payer_id_type`) it is checked by that country’s rules (GET /v1/schemes `payer_identity`), and ' +
            'bad check digits, an unknown country or type are 400 `ValidationError` naming the field; without them it is sent ' +
            'as an undeclared foreign identifier (docs/payer-identity.md). ' +
            IDEMPOTENCY_DESCRIPTION,
          parameters: [IDEMPOTENCY_KEY_PARAMETER],
          requestBody: { required: true, content: jsonContent(ref('schemas', 'ExecuteRequest')) },
          responses: {
            '200': okResponse(
              'The transaction as it stands.',
              ref('schemas', 'ExecuteResponse'),
              true,
              IDEMPOTENT_REPLAYED_HEADER,
            ),
            '400': errorResponse(
              `${describeTags(['ValidationError', 'IdempotencyKeyMissing', 'IdempotencyConflict'])}.`,
              RATE_LIMIT_HEADERS,
            ),
            '404': errorResponse(
              `${describeTags(['NotFoundError'])}: no such instruction for this key.`,
              RATE_LIMIT_HEADERS,
            ),
            '409': errorResponse(
              `${describeTags(['IdempotencyInProgress', 'InstructionAlreadyExecuted', 'ChargeAlreadyPaid', 'QuoteExpired'])}.`,
              { ...RATE_LIMIT_HEADERS, ...IDEMPOTENT_REPLAYED_HEADER },
            ),
            '413': BODY_ERRORS['413'],
            '415': BODY_ERRORS['415'],
            ...AUTHENTICATED_ERRORS,
          },
        },
      },
      '/v1/pay': {
        post: {
          operationId: 'pay',
          summary: 'Resolve a QR code and execute the payment in one call',
          description:
            'POST /v1/resolve and POST /v1/execute in one call (spec §4.3): the body is the union of both, and the answer ' +
            'carries the transaction and the instruction the QR resolved to (with `wallet_amount` and `quote` when ' +
            '`wallet_currency` was sent). The Idempotency-Key covers both steps: a retry never resolves a second instruction ' +
            'nor pays twice. ' +
            IDEMPOTENCY_DESCRIPTION,
          parameters: [IDEMPOTENCY_KEY_PARAMETER],
          requestBody: { required: true, content: jsonContent(ref('schemas', 'PayRequest')) },
          responses: {
            '200': okResponse(
              'The transaction as it stands and its instruction.',
              ref('schemas', 'PayResponse'),
              true,
              IDEMPOTENT_REPLAYED_HEADER,
            ),
            '400': errorResponse(
              `${describeTags(['ValidationError', 'IdempotencyKeyMissing', 'IdempotencyConflict'])}.`,
              RATE_LIMIT_HEADERS,
            ),
            '409': errorResponse(
              `${describeTags(['IdempotencyInProgress', 'ChargeAlreadyPaid'])}. ChargeAlreadyPaid while another payment of the same dynamic charge is processing (its body adds \`transaction_id\` when that payment is yours); once it completed, the charge is concluded and paying its QR is 422 QrDecodeError.`,
              RATE_LIMIT_HEADERS,
            ),
            '413': BODY_ERRORS['413'],
            '415': BODY_ERRORS['415'],
            '422': errorResponse(
              `The QR cannot be paid as sent: ${describeTags(['QrDecodeError', 'AmountMismatch', 'AmountRequired', 'AmountOutOfRange'])}.`,
              RATE_LIMIT_HEADERS,
            ),
            ...AUTHENTICATED_ERRORS,
            ...QR_ROUTE_UNAVAILABLE,
          },
        },
      },
      '/v1/partner/callbacks/{rail}': {
        post: {
          operationId: 'partnerCallback',
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
              description:
                '`t=<unix seconds>,v1=<hex digest>`; several v1 values are accepted during a secret rotation.',
            },
          ],
          requestBody: { required: true, content: jsonContent(ref('schemas', 'PartnerPayout')) },
          responses: {
            '200': okResponse(
              'Applied (or a non-terminal status, acknowledged).',
              ref('schemas', 'PartnerCallbackResponse'),
              false,
            ),
            '400': errorResponse(`${describeTags(['ValidationError'])}: the body is not a payout resource.`),
            '401': errorResponse(
              `${describeTags(['AuthError'])}: Partner-Signature missing, invalid or out of tolerance.`,
            ),
            '404': errorResponse(`${describeTags(['NotFoundError'])}: unknown rail or transaction.`),
            '413': errorResponse(`${describeTags(['PayloadTooLarge'])}: body over 16 KiB.`),
            '415': errorResponse(`${describeTags(['UnsupportedMediaType'])}: a body that is not JSON.`),
            '500': ref('responses', 'InternalError'),
            '503': ref('responses', 'ServiceUnavailable'),
          },
        },
      },
      '/v1/transactions': {
        get: {
          operationId: 'listTransactions',
          summary: "List the tenant's transactions",
          description:
            'Your transactions, newest first (`createdAt`, then `id`, descending), optionally filtered by `status` and a ' +
            '`created_gte` / `created_lt` range, a page at a time: pass `next_cursor` back as `cursor` until it is null. ' +
            'Paging is by position (keyset), so transactions created while you page never shift a page: nothing is ' +
            'repeated and nothing that existed when you started is skipped. An unknown query parameter, a `status` that is ' +
            'not a state, a date-time without a time zone, a reversed range, a `limit` that is not an integer from 1 to ' +
            '100 or a `cursor` this API did not give are 400 `ValidationError` naming the parameter.',
          parameters: TRANSACTION_LIST_PARAMETERS,
          responses: {
            '200': okResponse('One page of transactions.', ref('schemas', 'TransactionsResponse'), true),
            '400': errorResponse(
              `${describeTags(['ValidationError'])}: a query parameter that is unknown or not of the documented shape (the message names it).`,
              RATE_LIMIT_HEADERS,
            ),
            ...AUTHENTICATED_ERRORS,
          },
        },
      },
      '/v1/instructions/{id}': {
        get: {
          operationId: 'getInstruction',
          summary: 'Read an instruction',
          description:
            'One of your instructions, as POST /v1/resolve showed it: the spec §2.1 fields, plus `wallet_currency`, ' +
            '`wallet_amount` and `quote` when an FX quote was made. An unknown id, a malformed one and another ' +
            "tenant's id are all 404 `NotFoundError`.",
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: { type: 'string' },
              description: 'Instruction id (`ins_`).',
            },
          ],
          responses: {
            '200': okResponse('The instruction.', ref('schemas', 'InstructionResponse'), true),
            '404': errorResponse(
              `${describeTags(['NotFoundError'])}: no such instruction for this key.`,
              RATE_LIMIT_HEADERS,
            ),
            ...AUTHENTICATED_ERRORS,
          },
        },
      },
      '/v1/transactions/{id}': {
        get: {
          operationId: 'getTransaction',
          summary: 'Read a transaction',
          description:
            'The current state of one of your transactions (spec §4.4). An unknown id and another ' +
            "tenant's id are both 404 `NotFoundError`, so ids cannot be probed.",
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: { type: 'string' },
              description: 'Transaction id (`txn_`).',
            },
          ],
          responses: {
            '200': okResponse('The transaction.', ref('schemas', 'TransactionResponse'), true),
            '404': errorResponse(
              `${describeTags(['NotFoundError'])}: no such transaction for this key.`,
              RATE_LIMIT_HEADERS,
            ),
            ...AUTHENTICATED_ERRORS,
          },
        },
      },
      '/v1/webhook-endpoints': {
        get: {
          operationId: 'listWebhookEndpoints',
          summary: "List the tenant's webhook endpoints",
          description:
            'Every webhook endpoint registered for your tenant (spec §4.6), with the names of its custom ' +
            'headers (values are never shown). Endpoints are registered by the operator during onboarding.',
          responses: {
            '200': okResponse('The endpoints.', ref('schemas', 'WebhookEndpointsResponse'), true),
            ...AUTHENTICATED_ERRORS,
          },
        },
      },
      '/v1/webhook-deliveries': {
        get: {
          operationId: 'listWebhookDeliveries',
          summary: "List the tenant's webhook deliveries",
          description:
            'Your deliveries, newest first, optionally filtered by `transaction_id` and `status` (both may be ' +
            'combined; spec §4.7), a page at a time: pass `next_cursor` back as `cursor` until it is null. An unknown ' +
            'query parameter, a `status` that is not a state, a `limit` that is not an integer from 1 to 100, a ' +
            '`transaction_id` that is not a transaction id or a `cursor` this API did not give are 400 `ValidationError` naming the parameter.',
          parameters: DELIVERY_LIST_PARAMETERS,
          responses: {
            '200': okResponse('One page of deliveries.', ref('schemas', 'WebhookDeliveriesResponse'), true),
            '400': errorResponse(
              `${describeTags(['ValidationError'])}: a query parameter that is unknown or not of the documented shape (the message names it).`,
              RATE_LIMIT_HEADERS,
            ),
            ...AUTHENTICATED_ERRORS,
          },
        },
      },
      '/v1/webhook-deliveries/{id}': {
        get: {
          operationId: 'getWebhookDelivery',
          summary: 'Read a webhook delivery with its attempts',
          description:
            'One of your deliveries and its `attempt_log`: every HTTP attempt, oldest first, across replays, with the ' +
            "status answered, the failure class and the first bytes of the answer. An unknown id and another tenant's " +
            'id are both 404 `NotFoundError`.',
          parameters: [DELIVERY_ID_PARAMETER],
          responses: {
            '200': okResponse('The delivery.', ref('schemas', 'WebhookDeliveryResponse'), true),
            '404': errorResponse(
              `${describeTags(['NotFoundError'])}: no such delivery for this key.`,
              RATE_LIMIT_HEADERS,
            ),
            ...AUTHENTICATED_ERRORS,
          },
        },
      },
      '/v1/webhook-deliveries/{id}/replay': {
        post: {
          operationId: 'replayWebhookDelivery',
          summary: 'Send a webhook delivery again',
          description:
            'Re-enqueues a `delivered`, `failed` or `exhausted` delivery (spec §3.2, §4.8): it becomes `pending` with ' +
            '`attempts` 0 and `next_attempt_at` now, and the worker sends the same event (same `event_id`, same body, a ' +
            'fresh signature) on its next tick. Replaying a `delivered` delivery is a supported re-send: receivers ' +
            'deduplicate on `event_id`. A `pending` or `delivering` delivery is 409 `DeliveryInFlight`. No body is ' +
            'needed; an empty body or `{}` is accepted.',
          parameters: [DELIVERY_ID_PARAMETER],
          requestBody: {
            required: false,
            content: jsonContent(ref('schemas', 'WebhookDeliveryReplayRequest')),
          },
          responses: {
            '200': okResponse(
              'The delivery after the replay, `pending`.',
              ref('schemas', 'WebhookDeliveryReplayResponse'),
              true,
            ),
            '400': errorResponse(
              `${describeTags(['ValidationError'])}: a body other than none or \`{}\`.`,
              RATE_LIMIT_HEADERS,
            ),
            '404': errorResponse(
              `${describeTags(['NotFoundError'])}: no such delivery for this key.`,
              RATE_LIMIT_HEADERS,
            ),
            '409': errorResponse(
              `${describeTags(['DeliveryInFlight'])}: ${ERROR_REGISTRY.DeliveryInFlight.description}`,
              RATE_LIMIT_HEADERS,
            ),
            '413': BODY_ERRORS['413'],
            '415': BODY_ERRORS['415'],
            ...AUTHENTICATED_ERRORS,
          },
        },
      },
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document',
          security: [],
          responses: { '200': okResponse('The OpenAPI 3.1 document.', { type: 'object' }, false) },
        },
      },
      '/docs': {
        get: {
          operationId: 'getReferencePage',
          summary: 'API reference page (HTML, rendered from this document)',
          security: [],
          responses: { '200': htmlResponse('The reference page.') },
        },
      },
      '/docs/errors': {
        get: {
          operationId: 'getErrorCatalogue',
          summary: 'Error catalogue (HTML): one anchor per error name, the target of docs_url',
          security: [],
          responses: { '200': htmlResponse('The error catalogue.') },
        },
      },
      '/docs/assets/{name}': {
        get: {
          operationId: 'getReferencePageAsset',
          summary: 'Static assets of the reference page, served locally',
          security: [],
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'The asset.', headers: { 'x-request-id': ref('headers', 'XRequestId') } },
            '404': ref('responses', 'NotFound'),
          },
        },
      },
      '/healthz': {
        get: {
          operationId: 'healthz',
          summary: 'Liveness: the process is up',
          security: [],
          responses: { '200': okResponse('Alive.', ref('schemas', 'Health'), false) },
        },
      },
      '/readyz': {
        get: {
          operationId: 'readyz',
          summary: 'Readiness: 503 while shutting down or without the database',
          security: [],
          responses: {
            '200': okResponse('Ready.', ref('schemas', 'Health'), false),
            '503': ref('responses', 'ServiceUnavailable'),
          },
        },
      },
    },
    webhooks: {
      'transaction.completed': webhookOperation(
        'transaction.completed',
        'A transaction completed',
        'Sent to every registered endpoint subscribed to `transaction.completed` (or `*`) and to the ' +
          "transaction's `callback_url`, when the payment settled (spec §6.1). `data.result` carries the rail's " +
          'reference and `settledAt`; `data.error` is null.',
        'WebhookTransactionCompletedEvent',
      ),
      'transaction.failed': webhookOperation(
        'transaction.failed',
        'A transaction failed',
        'Sent to every registered endpoint subscribed to `transaction.failed` (or `*`) and to the ' +
          "transaction's `callback_url`, when the payment was definitively rejected or failed (spec §6.1). " +
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
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your API key (spec §5).' },
      },
      schemas: {
        ErrorBody: {
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
        },
        Scheme: SCHEME_SCHEMA,
        SchemesResponse: SCHEMES_RESPONSE_SCHEMA,
        ResolveRequest: RESOLVE_REQUEST_SCHEMA,
        Instruction: INSTRUCTION_SCHEMA,
        Quote: QUOTE_SCHEMA,
        ResolveResponse: RESOLVE_RESPONSE_SCHEMA,
        ExecuteRequest: EXECUTE_REQUEST_SCHEMA,
        ExecuteResponse: EXECUTE_RESPONSE_SCHEMA,
        PayRequest: PAY_REQUEST_SCHEMA,
        PayResponse: PAY_RESPONSE_SCHEMA,
        PartnerPayout: PARTNER_CALLBACK_SCHEMA,
        PartnerCallbackResponse: PARTNER_CALLBACK_RESPONSE_SCHEMA,
        Health: HEALTH_RESPONSE_SCHEMA,
        Transaction: TRANSACTION_SCHEMA,
        TransactionResponse: TRANSACTION_RESPONSE_SCHEMA,
        TransactionsResponse: TRANSACTIONS_RESPONSE_SCHEMA,
        InstructionResponse: INSTRUCTION_RESPONSE_SCHEMA,
        WebhookEndpoint: WEBHOOK_ENDPOINT_SCHEMA,
        WebhookEndpointsResponse: WEBHOOK_ENDPOINTS_RESPONSE_SCHEMA,
        WebhookDelivery: WEBHOOK_DELIVERY_SCHEMA,
        WebhookDeliveryAttempt: WEBHOOK_DELIVERY_ATTEMPT_SCHEMA,
        WebhookDeliveryWithAttempts: WEBHOOK_DELIVERY_WITH_ATTEMPTS_SCHEMA,
        WebhookDeliveriesResponse: WEBHOOK_DELIVERIES_RESPONSE_SCHEMA,
        WebhookDeliveryResponse: WEBHOOK_DELIVERY_RESPONSE_SCHEMA,
        WebhookDeliveryReplayRequest: WEBHOOK_DELIVERY_REPLAY_REQUEST_SCHEMA,
        WebhookDeliveryReplayResponse: WEBHOOK_DELIVERY_REPLAY_RESPONSE_SCHEMA,
        WebhookTransactionCompletedEvent: WEBHOOK_TRANSACTION_COMPLETED_EVENT_SCHEMA,
        WebhookTransactionFailedEvent: WEBHOOK_TRANSACTION_FAILED_EVENT_SCHEMA,
        WebhookPingEvent: WEBHOOK_PING_EVENT_SCHEMA,
      },
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
        RetryAfter: {
          description: 'Seconds to wait before retrying.',
          schema: { type: 'integer', minimum: 1 },
        },
      },
      responses: {
        BadRequest: errorResponse(
          `${describeTags(['ValidationError'])}: malformed JSON, a forbidden key, or a field not of the documented shape (the message names it).`,
          RATE_LIMIT_HEADERS,
        ),
        Unauthorized: errorResponse(
          `${describeTags(['AuthError'])}: ${ERROR_REGISTRY.AuthError.description}`,
        ),
        NotFound: errorResponse(
          `${describeTags(['NotFoundError'])}: ${ERROR_REGISTRY.NotFoundError.description}`,
        ),
        PayloadTooLarge: errorResponse(
          `${describeTags(['PayloadTooLarge'])}: body over 64 KiB.`,
          RATE_LIMIT_HEADERS,
        ),
        UnsupportedMediaType: errorResponse(
          `${describeTags(['UnsupportedMediaType'])}: a body that is not JSON.`,
          RATE_LIMIT_HEADERS,
        ),
        TooManyRequests: errorResponse(
          `${describeTags(['RateLimitError'])}: ${ERROR_REGISTRY.RateLimitError.description}`,
          {
            ...RATE_LIMIT_HEADERS,
            'Retry-After': ref('headers', 'RetryAfter'),
          },
        ),
        InternalError: errorResponse(
          `${describeTags(['InternalError'])}: ${ERROR_REGISTRY.InternalError.description}`,
        ),
        ServiceUnavailable: errorResponse(
          `${describeTags(['ServiceUnavailable'])}: ${ERROR_REGISTRY.ServiceUnavailable.description}`,
          {
            'Retry-After': ref('headers', 'RetryAfter'),
          },
        ),
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
