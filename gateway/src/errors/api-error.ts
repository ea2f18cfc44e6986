import { ERROR_REGISTRY, type ErrorTag } from './registry';

/**
 * A failure the public API answers with the registry's body. `message` must be safe to show:
 * it is sent to the client as it is.
 */
export class ApiError extends Error {
  readonly tag: ErrorTag;
  readonly status: number;
  /** Whole seconds, at least 1: the 429 body's retryAfter and the Retry-After header. */
  readonly retryAfterSeconds: number | undefined;
  /** Extra response headers (rate-limit headers of a 429, for example). */
  readonly headers: Readonly<Record<string, string>>;
  /** Extra body fields; only those the registry entry declares (`bodyFields`) are rendered. */
  readonly fields: Readonly<Record<string, string>>;

  constructor(
    tag: ErrorTag,
    message?: string,
    opts: {
      retryAfterSeconds?: number;
      headers?: Record<string, string>;
      fields?: Record<string, string>;
    } = {},
  ) {
    super(message || ERROR_REGISTRY[tag].defaultMessage);
    this.name = 'ApiError';
    this.tag = tag;
    this.status = ERROR_REGISTRY[tag].status;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.headers = opts.headers ?? {};
    this.fields = opts.fields ?? {};
  }
}

export function apiError(
  tag: ErrorTag,
  message?: string,
  opts?: { retryAfterSeconds?: number; headers?: Record<string, string> },
): ApiError {
  return new ApiError(tag, message, opts);
}
