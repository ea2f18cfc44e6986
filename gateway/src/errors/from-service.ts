import { Code, ConnectError, readErrorDetail } from '@qr-payout/platform';
import { ApiError } from './api-error';
import { isErrorTag } from './registry';

// How long clients should wait before retrying after a dependency failure (Retry-After of a 503).
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/**
 * Maps an error of a gRPC call to the public error (design §6). A coded service error with a tag
 * of the registry keeps the service's safe message; Unavailable / DeadlineExceeded without a
 * detail become 503; anything else is undefined here and renders as 500 InternalError.
 */
export function apiErrorFromService(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const detail = readErrorDetail(err);
  if (detail) {
    if (!isErrorTag(detail.tag) || detail.tag === 'InternalError') return undefined;
    return new ApiError(detail.tag, detail.message, retryHeaders(detail.tag === 'ServiceUnavailable'));
  }
  if (err instanceof ConnectError && (err.code === Code.Unavailable || err.code === Code.DeadlineExceeded)) {
    return new ApiError('ServiceUnavailable', undefined, retryHeaders(true));
  }
  return undefined;
}

function retryHeaders(unavailable: boolean): { headers?: Record<string, string> } {
  return unavailable ? { headers: { 'retry-after': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) } } : {};
}
