import { Code, ConnectError } from '@connectrpc/connect';
import { type ErrorDetail, ErrorDetailSchema } from '@qr-payout/proto/payout/common/v1/common_pb';

export { Code, ConnectError };

export type ServiceErrorOptions = {
  code: Code;
  field?: string;
  metadata?: Record<string, string>;
};

/**
 * The one coded error of every service: a ConnectError carrying a `payout.common.v1.ErrorDetail`
 * status detail. `message` must be safe to show to an API client (the gateway may render it).
 */
export function serviceError(tag: string, message: string, opts: ServiceErrorOptions): ConnectError {
  const detail = {
    desc: ErrorDetailSchema,
    value: { tag, message, field: opts.field ?? '', metadata: { ...opts.metadata } },
  };
  return new ConnectError(message, opts.code, undefined, [detail]);
}

export type ReadErrorDetail = {
  tag: string;
  message: string;
  field: string | undefined;
  metadata: Record<string, string>;
  code: Code;
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
  };
}

/** Whether `err` is a ConnectError with the given code (whatever produced it). */
export function hasCode(err: unknown, code: Code): boolean {
  return ConnectError.from(err).code === code;
}
