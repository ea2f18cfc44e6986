import type { Interceptor } from '@connectrpc/connect';
import { Code, ConnectError } from '@connectrpc/connect';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { REQUEST_ID_HEADER, requestContext } from '../context';
import { headersSetter } from './trace-headers';

const TRACER = '@qr-payout/platform/grpc';

/** A CLIENT span per call, with its W3C traceparent injected into the request headers. */
export function clientTraceInterceptor(): Interceptor {
  return (next) => async (req) => {
    const span = trace.getTracer(TRACER).startSpan(`${req.service.typeName}/${req.method.name}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        'rpc.system': 'grpc',
        'rpc.service': req.service.typeName,
        'rpc.method': req.method.name,
      },
    });
    const callContext = trace.setSpan(context.active(), span);
    propagation.inject(callContext, req.header, headersSetter);
    try {
      const res = await context.with(callContext, () => next(req));
      span.setAttribute('rpc.grpc.status_code', 0);
      return res;
    } catch (err) {
      const code = ConnectError.from(err).code;
      span.setAttribute('rpc.grpc.status_code', code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: Code[code] });
      throw err;
    } finally {
      span.end();
    }
  };
}

/** Carries the current request id (and tenant) to the next service. */
export function requestIdInterceptor(): Interceptor {
  return (next) => (req) => {
    const current = requestContext.get();
    if (current && !req.header.has(REQUEST_ID_HEADER)) req.header.set(REQUEST_ID_HEADER, current.requestId);
    if (current?.tenantId && !req.header.has('x-tenant-id')) req.header.set('x-tenant-id', current.tenantId);
    return next(req);
  };
}

// Socket errors that mean the target is not reachable right now.
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * connect-node recognises socket errors with `instanceof Error`, which fails across realms (jest
 * sandboxes), and then reports Internal. A refused or reset connection is Unavailable everywhere.
 */
export function networkErrorInterceptor(): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      if (err instanceof ConnectError && (err.code === Code.Internal || err.code === Code.Unknown)) {
        const cause = err.cause as { code?: unknown } | undefined;
        if (typeof cause?.code === 'string' && NETWORK_ERRORS.has(cause.code)) {
          throw new ConnectError(err.rawMessage, Code.Unavailable, err.metadata, undefined, err.cause);
        }
      }
      throw err;
    }
  };
}
