// The one error registry of the public API (docs/architecture.md "Errors";
// docs/api/errors.md "The error body", "Error names"). Every failure the gateway answers is
// rendered from this table; /docs/errors is generated from it.
import { type PublicErrorTag, ERROR_TAGS as SYSTEM_ERROR_TAGS } from '@qr-payout/platform/errors';

export interface ErrorEntry {
  status: number;
  /** One line for the catalogue. */
  title: string;
  /** When it happens (catalogue). */
  description: string;
  /** What the client should do (catalogue). */
  action: string;
  /** Message used when the raiser gives none. */
  defaultMessage: string;
  /**
   * Fields this error adds to the error body (docs/api/errors.md "The error body"), each with its
   * meaning (catalogue, OpenAPI). Filled from the service error's metadata of the same name; no
   * other metadata ever reaches the body.
   */
  bodyFields?: Readonly<Record<string, string>>;
}

export const ERROR_REGISTRY = {
  ValidationError: {
    status: 400,
    title: 'The request is not of the documented shape',
    description:
      'A body or query field is missing, has the wrong type or is out of range, or the body is malformed JSON. The message names the field.',
    action: 'Fix the named field and send the request again.',
    defaultMessage: 'The request is not valid.',
  },
  IdempotencyKeyMissing: {
    status: 400,
    title: 'Idempotency-Key header missing',
    description:
      'POST /v1/execute, POST /v1/pay and POST /v1/sandbox/triggers need an Idempotency-Key header.',
    action: 'Send a unique Idempotency-Key (for example a UUID) per payment attempt.',
    defaultMessage: 'The Idempotency-Key header is required for this operation.',
  },
  IdempotencyConflict: {
    status: 400,
    title: 'Idempotency-Key reused with a different body',
    description: 'The same Idempotency-Key was sent earlier with a different request body.',
    action: 'Use a new Idempotency-Key for a different request.',
    defaultMessage: 'This Idempotency-Key was used with a different request body.',
  },
  AuthError: {
    status: 401,
    title: 'Missing or invalid API key',
    description: 'The x-api-key header is missing, empty, or carries a key that is unknown or revoked.',
    action: 'Send the API key the operator gave you in the x-api-key header.',
    defaultMessage: 'Invalid API key.',
  },
  NotFoundError: {
    status: 404,
    title: 'Not found',
    description: 'The route does not exist, or the id is unknown or belongs to another tenant.',
    action: 'Check the path and the id.',
    defaultMessage: 'Not found.',
  },
  MethodNotAllowed: {
    status: 405,
    title: 'Method not allowed on this path',
    description:
      'The path exists, but not with this method (for example DELETE /v1/schemes). The Allow header lists the methods it has.',
    action: 'Use one of the methods in the Allow header.',
    defaultMessage: 'This method is not allowed on this path.',
  },
  SandboxOnly: {
    status: 403,
    title: 'Sandbox only',
    description:
      "A sandbox test helper (POST /v1/sandbox/triggers) was called on a deployment that is not the sandbox. The route is in every deployment's API reference, so the answer says why it refuses instead of a 404.",
    action:
      'Call it on the sandbox (`npm start`) with the sandbox key; in production make a real payment instead.',
    defaultMessage: 'This operation is only available in the sandbox.',
  },
  DeliveryInFlight: {
    status: 409,
    title: 'Webhook delivery still in flight',
    description: 'A replay was asked for a delivery that is pending or delivering.',
    action: 'Wait until the delivery reaches delivered, failed or exhausted, then replay it.',
    defaultMessage: 'The delivery is still in flight and cannot be replayed.',
  },
  DeliveryReplayTooSoon: {
    status: 429,
    title: 'Webhook delivery replayed moments ago',
    description:
      'A replay was asked for sooner than the minimum interval (10 seconds by default) after the last replay of the same delivery. The body carries retryAfter in seconds.',
    action:
      'Wait retryAfter seconds (also in the Retry-After header), then replay it again if it is still needed.',
    defaultMessage: 'The delivery was replayed moments ago; replay it again later.',
  },
  IdempotencyInProgress: {
    status: 409,
    title: 'Original request still processing',
    description: 'The same Idempotency-Key arrived while the first request is still processing.',
    action: 'Retry after a short delay; once the original finishes, its response is returned.',
    defaultMessage: 'A request with this Idempotency-Key is still processing.',
  },
  InstructionAlreadyExecuted: {
    status: 409,
    title: 'Instruction already executed',
    description: 'The instruction was already executed under another Idempotency-Key.',
    action: 'Resolve the QR code again for a new payment, or read the existing transaction.',
    defaultMessage: 'This instruction has already been executed.',
    bodyFields: {
      transaction_id:
        'The transaction (`txn_`) that executed the instruction: read it with GET /v1/transactions/{id}.',
    },
  },
  ChargeAlreadyPaid: {
    status: 409,
    title: 'This charge has already been paid',
    description:
      "The dynamic QR's charge was already paid or is being paid (single-use charge); resolving it again shows it concluded.",
    action: 'Do not retry; show the payer that this code was already used.',
    defaultMessage: "The dynamic QR's charge was already paid or is being paid.",
    bodyFields: {
      // payout sets it only when the paying transaction is the caller's tenant's.
      transaction_id:
        "The transaction (`txn_`) that paid or is paying the charge, only when it is your own: read it with GET /v1/transactions/{id}. Absent when another tenant's payment holds the charge.",
    },
  },
  QuoteExpired: {
    status: 409,
    title: 'FX quote expired',
    description: "The instruction's FX quote expired before execute.",
    action: 'Resolve the QR code again to get a fresh quote.',
    defaultMessage: "The instruction's FX quote has expired.",
  },
  PayloadTooLarge: {
    status: 413,
    title: 'Body too large',
    description: 'The request body is over 64 KiB.',
    action: 'Send a smaller body.',
    defaultMessage: 'The request body is larger than 64 KiB.',
  },
  UnsupportedMediaType: {
    status: 415,
    title: 'Body is not JSON',
    description: 'The request has a body whose Content-Type is not application/json.',
    action: 'Send the body as JSON with Content-Type: application/json.',
    defaultMessage: 'The request body must be JSON (Content-Type: application/json).',
  },
  QrDecodeError: {
    status: 422,
    title: 'QR code cannot be decoded',
    description:
      'The QR text is not a supported payment QR: bad CRC, bad TLV structure or unknown scheme. The message says which.',
    action: 'Scan the code again; if it keeps failing the merchant code is not supported.',
    defaultMessage: 'The QR code could not be decoded.',
  },
  AmountMismatch: {
    status: 422,
    title: 'Amount differs from the QR amount',
    description: 'The request carries an amount and the QR code carries a different one.',
    action: 'Omit amount for QR codes that carry one, or send the same amount.',
    defaultMessage: 'The amount differs from the amount in the QR code.',
  },
  AmountRequired: {
    status: 422,
    title: 'Amount required',
    description: 'The QR code carries no amount and the request gives none.',
    action: 'Send amount with the value the payer entered.',
    defaultMessage: 'This QR code carries no amount; send amount.',
  },
  AmountOutOfRange: {
    status: 422,
    title: "Amount outside the rail's limits",
    description:
      'The payment amount (positive) is below the minimum or above the maximum the rail accepts; GET /v1/schemes shows the limits. Zero or a negative amount is 400 ValidationError instead.',
    action: "Pay an amount within the scheme's limits.",
    defaultMessage: "The amount is outside the scheme's limits.",
  },
  RateLimitError: {
    status: 429,
    title: 'Rate limit exceeded',
    description:
      'More requests in the last 60 seconds than the key allows (100 by default), or, for a request whose API key is invalid, too many failed API key attempts from its address. The body carries retryAfter in seconds.',
    action: 'Wait retryAfter seconds (also in the Retry-After header) before retrying.',
    defaultMessage: 'Rate limit exceeded.',
  },
  InternalError: {
    status: 500,
    title: 'Unexpected error',
    description:
      'Something failed on our side. Nothing about the cause is shown; the request id lets support find it.',
    action: 'Retry later; if it persists, contact support with the request_id.',
    defaultMessage: 'An unexpected error occurred.',
  },
  ServiceUnavailable: {
    status: 503,
    title: 'Temporarily unavailable',
    description: 'A service the request needs is down or did not answer in time. Nothing was changed.',
    action:
      'Retry after the Retry-After header; payment operations are safe to retry with the same Idempotency-Key.',
    defaultMessage: 'The service is temporarily unavailable; retry shortly.',
  },
  QrLocationUnavailable: {
    status: 503,
    title: "The QR code's payment data cannot be fetched right now",
    description:
      "The QR code is valid but dynamic: its amount and receiver are published by the merchant's PSP, which did not answer (no connection, a timeout or a 5xx). Nothing was stored or changed.",
    action: "Retry in a few seconds; the merchant's PSP did not answer.",
    defaultMessage: "The QR code's payment data cannot be fetched right now; retry in a few seconds.",
  },
} as const satisfies Record<PublicErrorTag, ErrorEntry>;

/** A tag the public API answers with: platform's one union, shared with the services that raise it. */
export type ErrorTag = PublicErrorTag;

/** The public tags, in platform's order (the catalogue's). */
export const ERROR_TAGS: readonly ErrorTag[] = (
  Object.keys(SYSTEM_ERROR_TAGS) as (keyof typeof SYSTEM_ERROR_TAGS)[]
).filter((tag): tag is ErrorTag => SYSTEM_ERROR_TAGS[tag] === 'public');

export function isErrorTag(tag: string): tag is ErrorTag {
  return Object.hasOwn(ERROR_REGISTRY, tag);
}

/** The error body (docs/api/errors.md "The error body"). */
export interface ErrorBody {
  _tag: ErrorTag;
  type: ErrorTag;
  message: string;
  docs_url: string;
  request_id: string;
  retryAfter?: number;
  /** The entry's `bodyFields` (for example InstructionAlreadyExecuted's `transaction_id`). */
  [bodyField: string]: string | number | undefined;
}

/** The values of `tag`'s declared body fields found in `values` (a service error's metadata). */
export function bodyFieldsOf(
  tag: ErrorTag,
  values: Readonly<Record<string, string>>,
): Record<string, string> {
  const declared: Readonly<Record<string, string>> | undefined = (ERROR_REGISTRY[tag] as ErrorEntry)
    .bodyFields;
  const fields: Record<string, string> = {};
  for (const name of Object.keys(declared ?? {})) {
    const value = values[name];
    if (value !== undefined && value !== '') fields[name] = value;
  }
  return fields;
}

export function docsUrlFor(publicDocsUrl: string, tag: ErrorTag): string {
  return `${publicDocsUrl.replace(/\/+$/, '')}/errors#${tag}`;
}

export function renderErrorBody(opts: {
  tag: ErrorTag;
  message?: string;
  requestId: string;
  publicDocsUrl: string;
  retryAfterSeconds?: number;
  /** Body fields of the error; only those the tag's entry declares are rendered. */
  fields?: Readonly<Record<string, string>>;
}): ErrorBody {
  const body: ErrorBody = {
    _tag: opts.tag,
    type: opts.tag,
    message: opts.message || ERROR_REGISTRY[opts.tag].defaultMessage,
    docs_url: docsUrlFor(opts.publicDocsUrl, opts.tag),
    request_id: opts.requestId,
  };
  if (opts.retryAfterSeconds !== undefined) body.retryAfter = opts.retryAfterSeconds;
  if (opts.fields) Object.assign(body, bodyFieldsOf(opts.tag, opts.fields));
  return body;
}
