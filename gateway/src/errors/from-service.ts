import { Code, ConnectError, readErrorDetail } from '@qr-payout/platform/errors';
import { ApiError } from './api-error';
import { bodyFieldsOf, type ERROR_REGISTRY, type ErrorTag, isErrorTag } from './registry';

// How long clients should wait before retrying after a dependency failure (Retry-After of a 503).
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** The registry's 503 tags: each says to retry, so each gets a Retry-After. */
type UnavailableTag = {
  [T in ErrorTag]: (typeof ERROR_REGISTRY)[T]['status'] extends 503 ? T : never;
}[ErrorTag];

/**
 * Retry-After (seconds) per 503 tag; a new 503 entry fails to compile until it is given one. A
 * merchant's PSP gets a little longer than our own services: its fetch already took up to the
 * decoder's PIX_LOCATION_TIMEOUT_MS.
 */
export const RETRY_AFTER_SECONDS: Readonly<Record<UnavailableTag, number>> = {
  ServiceUnavailable: SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS,
  QrLocationUnavailable: 2,
};

/**
 * Maps an error of a gRPC call to the public error (docs/api/errors.md "Error names"). A coded
 * service error with a tag of the registry keeps the service's safe message, whatever its gRPC code
 * (so a decoder's UNAVAILABLE tagged QrLocationUnavailable stays that, not a generic outage);
 * Unavailable / DeadlineExceeded without a detail become 503 ServiceUnavailable; anything else is
 * undefined here and renders as 500 InternalError.
 */
export function apiErrorFromService(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const detail = readErrorDetail(err);
  if (detail) {
    if (!isErrorTag(detail.tag) || detail.tag === 'InternalError') return undefined;
    // A delay the service decided (a replay too soon) is passed on as it is: header and body.
    const serviceDelay = detail.retryAfterSeconds;
    return new ApiError(detail.tag, detail.message, {
      ...(serviceDelay === undefined
        ? retryHeaders(detail.tag)
        : { retryAfterSeconds: serviceDelay, headers: { 'retry-after': String(serviceDelay) } }),
      fields: bodyFieldsOf(detail.tag, detail.metadata),
    });
  }
  if (err instanceof ConnectError && (err.code === Code.Unavailable || err.code === Code.DeadlineExceeded)) {
    return new ApiError('ServiceUnavailable', undefined, retryHeaders('ServiceUnavailable'));
  }
  return undefined;
}

function isUnavailableTag(tag: ErrorTag): tag is UnavailableTag {
  return Object.hasOwn(RETRY_AFTER_SECONDS, tag);
}

function retryHeaders(tag: ErrorTag): { headers?: Record<string, string> } {
  return isUnavailableTag(tag) ? { headers: { 'retry-after': String(RETRY_AFTER_SECONDS[tag]) } } : {};
}
