import type { Interceptor } from '@connectrpc/connect';
import { Code, ConnectError } from '@connectrpc/connect';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { REQUEST_ID_HEADER, requestContext } from '../context';
import { newId } from '../ids';
import type { Logger } from '../logger';
import { headersGetter } from './trace-headers';

const TRACER = '@qr-payout/platform/grpc';
const HEALTH_SERVICE = 'grpc.health.v1.Health';

// Codes that mean the server failed rather than the caller.
const SERVER_FAULTS = new Set([Code.Internal, Code.Unknown, Code.DataLoss, Code.Unimplemented]);

/** Tracks calls in flight so close() can drain them. */
export type InFlight = { count: number; onIdle: Set<() => void> };

export function inFlightInterceptor(inFlight: InFlight): Interceptor {
  return (next) => async (req) => {
    inFlight.count++;
    try {
      return await next(req);
    } finally {
      inFlight.count--;
      if (inFlight.count === 0) for (const idle of inFlight.onIdle) idle();
    }
  };
}

/** Continues the caller's trace (W3C traceparent) in a SERVER span around the handler. */
export function serverTraceInterceptor(): Interceptor {
  return (next) => async (req) => {
    const parent = propagation.extract(context.active(), req.header, headersGetter);
    const span = trace.getTracer(TRACER).startSpan(
      `${req.service.typeName}/${req.method.name}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'rpc.system': 'grpc',
          'rpc.service': req.service.typeName,
          'rpc.method': req.method.name,
        },
      },
      parent,
    );
    try {
      const res = await context.with(trace.setSpan(parent, span), () => next(req));
      span.setAttribute('rpc.grpc.status_code', 0);
      return res;
    } catch (err) {
      const code = ConnectError.from(err).code;
      span.setAttribute('rpc.grpc.status_code', code);
      if (SERVER_FAULTS.has(code)) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: Code[code] });
      }
      throw err;
    } finally {
      span.end();
    }
  };
}

/** Runs the handler inside the request context named by `x-request-id` (or a fresh one). */
export function requestContextInterceptor(): Interceptor {
  return (next) => (req) => {
    const requestId = req.header.get(REQUEST_ID_HEADER) || newId('req');
    const tenantId = req.header.get('x-tenant-id') || undefined;
    return requestContext.run(tenantId ? { requestId, tenantId } : { requestId }, () => next(req));
  };
}

/** One structured line per call: rpc, code, duration. Health probes log at debug. */
export function callLogInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const rpc = `${req.service.typeName}/${req.method.name}`;
    const quiet = req.service.typeName === HEALTH_SERVICE;
    try {
      const res = await next(req);
      const line = { rpc, code: 'ok', duration_ms: elapsed(started) };
      if (quiet) logger.debug(line, 'grpc call');
      else logger.info(line, 'grpc call');
      return res;
    } catch (err) {
      const code = ConnectError.from(err).code;
      const line = { rpc, code: codeName(code), duration_ms: elapsed(started) };
      if (SERVER_FAULTS.has(code)) logger.error(line, 'grpc call');
      else if (quiet) logger.debug(line, 'grpc call');
      else logger.info(line, 'grpc call');
      throw err;
    }
  };
}

/**
 * Anything a handler throws that is not a ConnectError becomes Internal with a generic message:
 * no internals leave the process (conventions "Errors"). The real error is logged here.
 */
export function errorMaskingInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      if (err instanceof ConnectError) throw err;
      // A handler that honoured the call's signal rethrows its abort: report why it was aborted.
      if (req.signal.aborted) throw ConnectError.from(req.signal.reason ?? err);
      logger.error({ err, rpc: `${req.service.typeName}/${req.method.name}` }, 'unhandled error in handler');
      throw new ConnectError('internal error', Code.Internal);
    }
  };
}

export function codeName(code: Code): string {
  return (Code[code] ?? 'unknown').replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
