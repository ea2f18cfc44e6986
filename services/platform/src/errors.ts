import { Code, ConnectError } from '@connectrpc/connect';
import { type ErrorDetail, ErrorDetailSchema } from '@qr-payout/proto/payout/common/v1/common_pb';

export { Code, ConnectError };

/**
 * Every error tag of the system, one typed union (docs/api/errors.md "Error names"). `public`: the
 * gateway renders it from its registry entry (gateway/src/errors/registry.ts must have one for each,
 * checked by its type); `internal`: read only by the service that called, never rendered (fx's
 * QuoteAlreadyUsed, which payout turns into its own outcome). A new tag goes here first.
 */
export const ERROR_TAGS = {
  ValidationError: 'public',
  IdempotencyKeyMissing: 'public',
  IdempotencyConflict: 'public',
  AuthError: 'public',
  NotFoundError: 'public',
  MethodNotAllowed: 'public',
  SandboxOnly: 'public',
  DeliveryInFlight: 'public',
  DeliveryReplayTooSoon: 'public',
  IdempotencyInProgress: 'public',
  InstructionAlreadyExecuted: 'public',
  ChargeAlreadyPaid: 'public',
  QuoteExpired: 'public',
  PayloadTooLarge: 'public',
  UnsupportedMediaType: 'public',
  QrDecodeError: 'public',
  AmountMismatch: 'public',
  AmountRequired: 'public',
  AmountOutOfRange: 'public',
  RateLimitError: 'public',
  InternalError: 'public',
  ServiceUnavailable: 'public',
  QrLocationUnavailable: 'public',
  QuoteAlreadyUsed: 'internal',
} as const satisfies Record<string, 'public' | 'internal'>;

type ErrorTag = keyof typeof ERROR_TAGS;

/** The tags the public API answers with. */
export type PublicErrorTag = {
  [T in ErrorTag]: (typeof ERROR_TAGS)[T] extends 'public' ? T : never;
}[ErrorTag];

type ServiceErrorOptions = {
  code: Code;
  field?: string;
  metadata?: Record<string, string>;
  /**
   * Whole seconds until the call may succeed: sent as a `retry-after` header (gRPC trailer), as the
   * admin API's own throttle sends it, so every hop passes it on as Retry-After.
   */
  retryAfterSeconds?: number;
};

const RETRY_AFTER = 'retry-after';

/**
 * The one coded error of every service: a ConnectError carrying a `payout.common.v1.ErrorDetail`
 * status detail. `message` must be safe to show to an API client (the gateway may render it).
 */
export function serviceError(tag: ErrorTag, message: string, opts: ServiceErrorOptions): ConnectError {
  const detail = {
    desc: ErrorDetailSchema,
    value: { tag, message, field: opts.field ?? '', metadata: { ...opts.metadata } },
  };
  const headers =
    opts.retryAfterSeconds === undefined
      ? undefined
      : new Headers({ [RETRY_AFTER]: String(opts.retryAfterSeconds) });
  return new ConnectError(message, opts.code, headers, [detail]);
}

type ReadErrorDetail = {
  /** As received: a peer may run a version with tags this one does not know. */
  tag: string;
  message: string;
  field: string | undefined;
  metadata: Record<string, string>;
  code: Code;
  /** The error's `retryAfterSeconds`, when it gave one. */
  retryAfterSeconds: number | undefined;
};

/** Reads back the ErrorDetail of an error raised by `serviceError`, locally or over gRPC. */
export function readErrorDetail(err: unknown): ReadErrorDetail | undefined {
  if (!(err instanceof ConnectError)) return undefined;
  const detail: ErrorDetail | undefined = err.findDetails(ErrorDetailSchema)[0];
  if (!detail) return undefined;
  return {
    tag: detail.tag,
    message: detail.message,
    field: detail.field === '' ? undefined : detail.field,
    metadata: { ...detail.metadata },
    code: err.code,
    retryAfterSeconds: retryAfterSecondsOf(err.metadata.get(RETRY_AFTER)),
  };
}

/** A `retry-after` of whole seconds (RFC 9110 delay-seconds); anything else is none. */
function retryAfterSecondsOf(value: string | null): number | undefined {
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}
