import {
  describeTags,
  errorResponse,
  RATE_LIMIT_HEADERS,
  ref,
  registryErrorResponse,
  retryableEitherResponse,
} from '../../openapi/responses';

// The responses the routes share (docs/api/errors.md "Error names"): the statuses and error names
// of groups of routes, and components.responses, which they refer to by name. Built with the
// generic helpers of openapi/responses.ts; the OpenAPI generator copies them as they are.

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
