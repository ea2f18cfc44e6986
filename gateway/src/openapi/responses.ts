import {
  ERROR_REGISTRY,
  ERROR_TAGS,
  type ErrorEntry,
  type ErrorTag,
  renderErrorBody,
} from '../errors/registry';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TRANSACTION_ID } from './examples';

// The response objects routes declare (http/routes/*): success bodies with their schema and
// examples, and error responses showing each error name they can carry, rendered by the registry
// (docs/api/errors.md "The error body"). The OpenAPI generator (paths.ts) copies them as they are.

/** The sandbox's public URL: the server when PUBLIC_DOCS_URL names no other. */
export const SANDBOX_SERVER_URL = 'http://localhost:8080';
const EXAMPLE_DOCS_URL = `${SANDBOX_SERVER_URL}/docs`;

export const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': ref('headers', 'XRateLimitLimit'),
  'x-ratelimit-remaining': ref('headers', 'XRateLimitRemaining'),
  'x-ratelimit-reset': ref('headers', 'XRateLimitReset'),
  'RateLimit-Policy': ref('headers', 'RateLimitPolicy'),
  RateLimit: ref('headers', 'RateLimit'),
};

export type Examples = Record<string, { summary?: string; value: unknown }>;

/** A JSON body with its examples; the first example is what "Try it out" sends. */
export function jsonContent(schema: object, examples?: Examples) {
  return { 'application/json': { schema, ...(examples ? { examples } : {}) } };
}

/** One example of `value`, named `name`. */
export function example(name: string, summary: string, value: unknown): Examples {
  return { [name]: { summary, value } };
}

/** The body `tag` answers with, as the registry renders it. */
export function exampleErrorBody(tag: ErrorTag) {
  const declared = (ERROR_REGISTRY[tag] as ErrorEntry).bodyFields ?? {};
  return renderErrorBody({
    tag,
    requestId: EXAMPLE_REQUEST_ID,
    publicDocsUrl: EXAMPLE_DOCS_URL,
    // Every 429 tells how long to wait, in the body as in Retry-After.
    ...(ERROR_REGISTRY[tag].status === 429 ? { retryAfterSeconds: 12 } : {}),
    ...('transaction_id' in declared ? { fields: { transaction_id: EXAMPLE_TRANSACTION_ID } } : {}),
  });
}

/** An error response: one example per tag it can carry, named by the tag (errorTagsOf reads them). */
export function errorResponse(
  tags: readonly ErrorTag[],
  description: string,
  extraHeaders: Record<string, object> = {},
) {
  const examples: Examples = {};
  for (const tag of tags)
    examples[tag] = { summary: ERROR_REGISTRY[tag].title, value: exampleErrorBody(tag) };
  return {
    description,
    headers: { 'x-request-id': ref('headers', 'XRequestId'), ...extraHeaders },
    content: jsonContent(ref('schemas', 'ErrorBody'), examples),
  };
}

/** An error response of one tag, described by the registry. */
export function registryErrorResponse(tag: ErrorTag, extraHeaders: Record<string, object> = {}) {
  return errorResponse([tag], `${describeTags([tag])}: ${ERROR_REGISTRY[tag].description}`, extraHeaders);
}

export function okResponse(
  description: string,
  schema: object,
  authenticated: boolean,
  examples: Examples,
  extraHeaders: Record<string, object> = {},
) {
  return {
    description,
    headers: {
      'x-request-id': ref('headers', 'XRequestId'),
      ...(authenticated ? RATE_LIMIT_HEADERS : {}),
      ...extraHeaders,
    },
    content: jsonContent(schema, examples),
  };
}

/** The last page of a newest-first list: one item under `key`, no `next_cursor`. */
export function lastPageExample(key: string, item: unknown): Examples {
  return example('last_page', 'The last page', {
    [key]: [item],
    next_cursor: null,
    request_id: EXAMPLE_REQUEST_ID,
  });
}

/** `{ <key>: value, request_id }`, the shape of most success bodies. */
export function withRequestId(key: string, value: unknown) {
  return { [key]: value, request_id: EXAMPLE_REQUEST_ID };
}

export function htmlResponse(description: string) {
  return {
    description,
    headers: { 'x-request-id': ref('headers', 'XRequestId') },
    content: {
      'text/html': {
        schema: { type: 'string' },
        examples: example('page', 'An HTML page', '<!doctype html><html lang="en">…</html>'),
      },
    },
  };
}

export function describeTags(tags: readonly string[]): string {
  return tags.map((t) => `\`${t}\``).join(', ');
}

/** What an extra error body field means, per error that declares it (the registry's `bodyFields`). */
export function describeBodyField(field: string): string {
  const uses = ERROR_TAGS.flatMap((tag) => {
    const meaning = (ERROR_REGISTRY[tag] as ErrorEntry).bodyFields?.[field];
    return meaning === undefined ? [] : [`${describeTags([tag])}: ${meaning}`];
  });
  return uses.join(' ');
}

export const HEALTH_OK = example('ok', 'Up', { status: 'ok' });

/** The 400 of a list whose query is refused. */
export const QUERY_ERRORS = {
  '400': errorResponse(
    ['ValidationError'],
    `${describeTags(['ValidationError'])}: a query parameter that is unknown or not of the documented shape (the message names it).`,
    RATE_LIMIT_HEADERS,
  ),
};

/** Responses every authenticated route can give. */
export const AUTHENTICATED_ERRORS = {
  '401': ref('responses', 'Unauthorized'),
  '429': ref('responses', 'TooManyRequests'),
  '500': ref('responses', 'InternalError'),
  '503': ref('responses', 'ServiceUnavailable'),
};

/** The 422s of the routes that decode a QR. */
export const QR_UNPAYABLE_TAGS = [
  'QrDecodeError',
  'AmountMismatch',
  'AmountRequired',
  'AmountOutOfRange',
] as const;

/** One status of two tags, each described by the registry, both retryable after Retry-After. */
export function retryableEitherResponse(
  tags: readonly [ErrorTag, ErrorTag],
  extraHeaders: Record<string, object> = {},
) {
  return errorResponse(
    tags,
    `${tags.map((tag) => `${describeTags([tag])}: ${ERROR_REGISTRY[tag].description} `).join('')}` +
      'Both are retryable after the Retry-After header.',
    { ...extraHeaders, 'Retry-After': ref('headers', 'RetryAfter') },
  );
}

/** The 503 of the routes that decode a QR: our outage, or the merchant PSP's for a dynamic QR. */
export const QR_ROUTE_UNAVAILABLE = {
  '503': retryableEitherResponse(['ServiceUnavailable', 'QrLocationUnavailable']),
};

/** The 429 of the replay: the key's rate limit, or the same delivery replayed moments ago. */
export const REPLAY_TOO_MANY = {
  '429': retryableEitherResponse(['RateLimitError', 'DeliveryReplayTooSoon'], RATE_LIMIT_HEADERS),
};

/** The errors of the routes that decode a QR, beyond their body's. */
export const QR_ROUTE_ERRORS = {
  '422': errorResponse(
    QR_UNPAYABLE_TAGS,
    `The QR cannot be paid as sent: ${describeTags(QR_UNPAYABLE_TAGS)}.`,
    RATE_LIMIT_HEADERS,
  ),
  ...AUTHENTICATED_ERRORS,
  ...QR_ROUTE_UNAVAILABLE,
};

/** The 400 of execute and pay: the body or the Idempotency-Key. */
const IDEMPOTENT_BODY_400 = errorResponse(
  ['ValidationError', 'IdempotencyKeyMissing', 'IdempotencyConflict'],
  `${describeTags(['ValidationError', 'IdempotencyKeyMissing', 'IdempotencyConflict'])}.`,
  RATE_LIMIT_HEADERS,
);

/** Marks a response as a replay; only on replays, so not required. */
export const IDEMPOTENT_REPLAYED_HEADER = { 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') };

/** Responses of routes that take a JSON body. */
export const BODY_ERRORS = {
  '400': ref('responses', 'BadRequest'),
  '413': ref('responses', 'PayloadTooLarge'),
  '415': ref('responses', 'UnsupportedMediaType'),
};

/** The body responses of execute and pay: IDEMPOTENT_BODY_400, and the JSON body's 413 and 415. */
export const IDEMPOTENT_BODY_ERRORS = {
  '400': IDEMPOTENT_BODY_400,
  '413': BODY_ERRORS['413'],
  '415': BODY_ERRORS['415'],
};

/** components.responses: the responses many operations share, referred to by name. */
export const SHARED_RESPONSES = {
  BadRequest: errorResponse(
    ['ValidationError'],
    `${describeTags(['ValidationError'])}: malformed JSON, a forbidden key, or a field not of the documented shape (the message names it).`,
    RATE_LIMIT_HEADERS,
  ),
  Unauthorized: registryErrorResponse('AuthError'),
  NotFound: registryErrorResponse('NotFoundError'),
  // Not listed per operation: any path of this document answers it for a method it does not have.
  MethodNotAllowed: registryErrorResponse('MethodNotAllowed', { Allow: ref('headers', 'Allow') }),
  PayloadTooLarge: errorResponse(
    ['PayloadTooLarge'],
    `${describeTags(['PayloadTooLarge'])}: body over 64 KiB.`,
    RATE_LIMIT_HEADERS,
  ),
  UnsupportedMediaType: errorResponse(
    ['UnsupportedMediaType'],
    `${describeTags(['UnsupportedMediaType'])}: a body that is not JSON.`,
    RATE_LIMIT_HEADERS,
  ),
  TooManyRequests: registryErrorResponse('RateLimitError', {
    ...RATE_LIMIT_HEADERS,
    'Retry-After': ref('headers', 'RetryAfter'),
  }),
  InternalError: registryErrorResponse('InternalError'),
  ServiceUnavailable: registryErrorResponse('ServiceUnavailable', {
    'Retry-After': ref('headers', 'RetryAfter'),
  }),
};
