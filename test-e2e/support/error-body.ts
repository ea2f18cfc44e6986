import { type ApiResponse, UUID } from './http';

/**
 * docs/api/errors.md "The error body": exactly these fields (RateLimitError adds `retryAfter`,
 * docs/api/errors.md "Error names").
 */
const ERROR_FIELDS = ['_tag', 'docs_url', 'message', 'request_id', 'type'];

/** The status of each error name (docs/api/errors.md "Error names"). */
const ERROR_STATUS: Readonly<Record<string, number>> = {
  ValidationError: 400,
  IdempotencyKeyMissing: 400,
  IdempotencyConflict: 400,
  AuthError: 401,
  SandboxOnly: 403,
  NotFoundError: 404,
  MethodNotAllowed: 405,
  IdempotencyInProgress: 409,
  InstructionAlreadyExecuted: 409,
  ChargeAlreadyPaid: 409,
  QuoteExpired: 409,
  DeliveryInFlight: 409,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  QrDecodeError: 422,
  AmountRequired: 422,
  AmountMismatch: 422,
  AmountOutOfRange: 422,
  RateLimitError: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
  QrLocationUnavailable: 503,
};

/**
 * The registry's declared body fields beyond the five: RateLimitError's retryAfter (docs/api/errors.md
 * "Error names"), InstructionAlreadyExecuted's transaction_id, and ChargeAlreadyPaid's, present only
 * when the payment is the caller's (docs/api/idempotency.md "The Idempotency-Key").
 */
function declaredFields(tag: string, body: Record<string, unknown>): string[] {
  if (tag === 'RateLimitError') return ['retryAfter'];
  if (tag === 'InstructionAlreadyExecuted' || (tag === 'ChargeAlreadyPaid' && 'transaction_id' in body))
    return ['transaction_id'];
  return [];
}

/**
 * What makes an answer other than the error body of docs/api/errors.md "The error body", whatever
 * its name, or undefined when it is one: JSON, exactly the declared fields, `_tag` = `type` a known
 * name whose status is the answer's, a non-empty message, `docs_url` at the name's anchor, and
 * `request_id` a UUID equal to `x-request-id`. For checks that must not throw (the fuzz stage).
 */
export function errorBodyProblem(res: ApiResponse, docsBaseUrl: string): string | undefined {
  if (!/^application\/json/.test(res.headers.get('content-type') ?? ''))
    return 'content-type is not application/json';
  const body = res.json;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  const tag = body._tag;
  if (typeof tag !== 'string' || !Object.hasOwn(ERROR_STATUS, tag))
    return `_tag ${JSON.stringify(tag)} is no error name`;
  if (ERROR_STATUS[tag] !== res.status) return `${tag} answered with ${res.status}, not ${ERROR_STATUS[tag]}`;
  const fields = Object.keys(body).sort().join(',');
  const expected = [...ERROR_FIELDS, ...declaredFields(tag, body)].sort().join(',');
  if (fields !== expected) return `fields ${fields}, not ${expected}`;
  if (body.type !== tag) return `type ${JSON.stringify(body.type)} is not _tag ${tag}`;
  if (typeof body.message !== 'string' || body.message.trim() === '') return 'the message is empty';
  if (body.docs_url !== `${docsBaseUrl}/errors#${tag}`) return `docs_url ${JSON.stringify(body.docs_url)}`;
  if (typeof body.request_id !== 'string' || !UUID.test(body.request_id)) return 'request_id is not a UUID';
  if (res.headers.get('x-request-id') !== body.request_id) return 'request_id is not the x-request-id header';
  return undefined;
}

/**
 * Asserts a response is the error body for `tag` with `status`, by errorBodyProblem's rules (one
 * checker of docs/api/errors.md "The error body" for every e2e test; docs/api/resources.md "Request
 * ids").
 */
export function expectErrorBody(res: ApiResponse, status: number, tag: string, docsBaseUrl: string): void {
  expect({ status: res.status, body: res.json ?? res.text }).toMatchObject({ status, body: { _tag: tag } });
  expect(errorBodyProblem(res, docsBaseUrl)).toBeUndefined();
}
