import { isDatabaseUnavailable } from '@qr-payout/platform/db';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiError, apiError } from '../errors/api-error';
import { apiErrorFromService, SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/from-service';
import { renderErrorBody } from '../errors/registry';

// Fastify's own errors, by code, mapped to the registry (docs/api/errors.md "Error names").
const FRAMEWORK_ERRORS: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => apiError('PayloadTooLarge'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => apiError('UnsupportedMediaType'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    apiError('ValidationError', 'The Content-Length header does not match the body.'),
  FST_ERR_BAD_URL: () => apiError('ValidationError', 'The request path is not a valid URL.'),
};

/** The public error for any failure; unexpected ones are logged here and become InternalError. */
export function toApiError(err: unknown, request: FastifyRequest, logger: Logger): ApiError {
  if (err instanceof ApiError) return err;
  const fastifyError = err as Partial<FastifyError>;
  if (fastifyError.code === 'FST_ERR_VALIDATION') {
    return apiError('ValidationError', fastifyError.message);
  }
  const known = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (known) return known();
  const fromService = apiErrorFromService(err);
  if (fromService) {
    if (fromService.tag === 'ServiceUnavailable') {
      logger.warn({ request_id: request.id, err: errSummary(err) }, 'dependency unavailable');
    }
    return fromService;
  }
  // The gateway's own PostgreSQL (API keys, idempotency) being down is a dependency outage.
  if (isDatabaseUnavailable(err)) {
    logger.warn({ request_id: request.id, err: errSummary(err) }, 'database unavailable');
    return apiError('ServiceUnavailable', undefined, {
      headers: { 'retry-after': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
    });
  }
  if (
    typeof fastifyError.statusCode === 'number' &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    // Any other client-side framework error: a request we cannot read.
    return apiError('ValidationError', 'The request could not be read.');
  }
  logger.error({ request_id: request.id, err }, 'unexpected error');
  return apiError('InternalError');
}

function errSummary(err: unknown): { message?: string; code?: unknown } {
  const e = err as { message?: string; code?: unknown };
  return { message: e?.message, code: e?.code };
}

export function sendApiError(reply: FastifyReply, error: ApiError, publicDocsUrl: string): FastifyReply {
  const body = renderErrorBody({
    tag: error.tag,
    message: error.message,
    requestId: reply.request.id,
    publicDocsUrl,
    fields: error.fields,
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  });
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(body);
}
