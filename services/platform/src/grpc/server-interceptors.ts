import { create, type DescMethod, type DescService, type Message } from '@bufbuild/protobuf';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import type * as grpc from '@grpc/grpc-js';
import {
  type Attributes,
  type Context,
  context,
  type Histogram,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { Health } from '@qr-payout/proto/grpc/health/v1/health_pb';
import { requestContext } from '../context';
import { isDatabaseUnavailable } from '../db/unavailable';
import { newId } from '../ids';
import type { Logger } from '../logger';
import { secondsSince } from '../metrics/instruments';
import { cancelReason, GrpcHandlerContext, type ServerCall } from './handler-context';
import { toGrpcStatus } from './status';
import { firstValue, metadataGetter, REQUEST_ID_HEADER } from './trace-headers';

// What the platform does around every server call, in one place per call kind instead of a chain
// of per-call closures: in-flight count, a SERVER span continuing the caller's W3C trace, the
// request context from x-request-id, one log line, and masking of unexpected errors.

const TRACER = '@qr-payout/platform/grpc';
const TENANT_ID_HEADER = 'x-tenant-id';
const tracer = trace.getTracer(TRACER);

// Codes that mean the server failed rather than the caller.
const SERVER_FAULTS = new Set<number>([Code.Internal, Code.Unknown, Code.DataLoss, Code.Unimplemented]);

/** Tracks calls in flight so close() can drain them. */
export type InFlight = { count: number; onIdle: Set<() => void> };

/** A unary method implementation as connect's ServiceImpl declares it (a value or a promise). */
export type UnaryImplementation = (request: Message, context: HandlerContext) => unknown;
/** A server-streaming method implementation (connect's ServiceImpl shape). */
export type ServerStreamImplementation = (
  request: Message,
  context: HandlerContext,
) => AsyncIterable<unknown>;

/**
 * Wraps a unary implementation (inside the platform's span, request context, log line and error
 * masking). Applied once when the service is registered, so it costs nothing per call.
 */
export type GrpcServerInterceptor = (next: UnaryImplementation, method: DescMethod) => UnaryImplementation;

/** One method of a registered service, with everything its calls share. */
type ServerRoute = {
  readonly service: DescService;
  readonly method: DescMethod;
  readonly rpc: string;
  readonly logger: Logger;
  readonly inFlight: InFlight;
  readonly attributes: Attributes;
  /** Health probes log at debug: they would drown the calls that matter. */
  readonly quiet: boolean;
  /** rpc_server_call_duration_seconds; undefined for health probes (not traffic). */
  readonly durations: Histogram | undefined;
  /** The histogram's attributes per status code, made once each. */
  readonly metricAttributes: Attributes[];
};

export function serverRoute(
  service: DescService,
  method: DescMethod,
  logger: Logger,
  inFlight: InFlight,
  durations?: Histogram,
): ServerRoute {
  const quiet = service.typeName === Health.typeName;
  return {
    service,
    method,
    rpc: `${service.typeName}/${method.name}`,
    logger,
    inFlight,
    attributes: { 'rpc.system': 'grpc', 'rpc.service': service.typeName, 'rpc.method': method.name },
    quiet,
    durations: quiet ? undefined : durations,
    metricAttributes: [],
  };
}

/** The attributes of one call's duration: service, method and status code (17 codes at most). */
export function rpcMetricAttributes(
  cache: Attributes[],
  service: DescService,
  method: DescMethod,
  code: number,
): Attributes {
  let attributes = cache[code];
  if (!attributes) {
    attributes = { 'rpc.service': service.typeName, 'rpc.method': method.name, 'rpc.grpc.status_code': code };
    cache[code] = attributes;
  }
  return attributes;
}

/** The observation of one call: started when it arrives, finished once its status is sent. */
class ObservedCall {
  readonly started = performance.now();
  readonly span: Span;
  readonly traceContext: Context;
  readonly request: NonNullable<ReturnType<typeof requestContext.get>>;

  constructor(
    readonly route: ServerRoute,
    metadata: grpc.Metadata,
  ) {
    route.inFlight.count++;
    // Only the caller's traceparent parents the span, never whatever was active at listen time.
    const parent = propagation.extract(ROOT_CONTEXT, metadata, metadataGetter);
    // Health probes (kubelet's, the round-robin clients' Watch) are not traffic: no span, or each
    // would start a trace of its own, thousands a day per pod; and no active span while they run,
    // so what they call (instrumented with requireParentSpan) records none either.
    if (route.quiet) {
      this.span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
      this.traceContext = ROOT_CONTEXT;
    } else {
      this.span = tracer.startSpan(
        route.rpc,
        { kind: SpanKind.SERVER, attributes: route.attributes },
        parent,
      );
      this.traceContext = trace.setSpan(parent, this.span);
    }
    const requestId = firstValue(metadata, REQUEST_ID_HEADER) || newId('req');
    const tenantId = firstValue(metadata, TENANT_ID_HEADER);
    this.request = tenantId ? { requestId, tenantId } : { requestId };
  }

  /** Runs the call in its request context and span. */
  run<A extends unknown[]>(fn: (...args: A) => Promise<void>, ...args: A): void {
    void requestContext.run(this.request, () => context.with(this.traceContext, fn, undefined, ...args));
  }

  /** Span status and one log line (written inside the call's context: it carries its ids). */
  finish(code: number): void {
    const { route, span } = this;
    span.setAttribute('rpc.grpc.status_code', code);
    const fault = SERVER_FAULTS.has(code);
    if (fault) span.setStatus({ code: SpanStatusCode.ERROR, message: Code[code] });
    const level = fault ? 'error' : route.quiet ? 'debug' : 'info';
    if (route.logger.isLevelEnabled(level)) {
      const line = {
        rpc: route.rpc,
        code: code === 0 ? 'ok' : codeName(code),
        duration_ms: elapsed(this.started),
      };
      route.logger[level](line, 'grpc call');
    }
    span.end();
    route.durations?.record(
      secondsSince(this.started),
      rpcMetricAttributes(route.metricAttributes, route.service, route.method, code),
    );
    const inFlight = route.inFlight;
    inFlight.count--;
    if (inFlight.count === 0) for (const idle of inFlight.onIdle) idle();
  }
}

/**
 * Anything a handler throws that is not a ConnectError becomes Internal with a generic message:
 * no internals leave the process (docs/contributing.md "Errors and logs"). The real error is logged
 * here.
 */
function callError(err: unknown, call: ServerCall, route: ServerRoute): ConnectError {
  if (err instanceof ConnectError) return err;
  // A handler that honoured the call's signal rethrows its abort: report why it was aborted.
  if (call.cancelled) return cancelReason(call);
  // A database that is down is an outage, UNAVAILABLE (the gateway's 503, docs/api/errors.md "The
  // error body"), not a bug.
  if (isDatabaseUnavailable(err)) {
    route.logger.warn({ err, rpc: route.rpc }, 'database unavailable');
    return new ConnectError('database unavailable', Code.Unavailable);
  }
  route.logger.error({ err, rpc: route.rpc }, 'unhandled error in handler');
  return new ConnectError('internal error', Code.Internal);
}

export function unaryHandler(
  route: ServerRoute,
  impl: UnaryImplementation,
): grpc.handleUnaryCall<Message, Message> {
  return (call, callback) => {
    const observed = new ObservedCall(route, call.metadata);
    observed.run(runUnary, observed, impl, call, callback);
  };
}

async function runUnary(
  observed: ObservedCall,
  impl: UnaryImplementation,
  call: grpc.ServerUnaryCall<Message, Message>,
  callback: grpc.sendUnaryData<Message>,
): Promise<void> {
  const { route } = observed;
  let code = 0;
  try {
    const ctx = new GrpcHandlerContext(route.service, route.method, call);
    const response = create(route.method.output, (await impl(call.request, ctx)) as never);
    ctx.sendResponseHeader();
    callback(null, response, ctx.responseTrailerMetadata());
  } catch (err) {
    const error = callError(err, call, route);
    code = error.code;
    callback(toGrpcStatus(error));
  }
  observed.finish(code);
}

export function serverStreamHandler(
  route: ServerRoute,
  impl: ServerStreamImplementation,
): grpc.handleServerStreamingCall<Message, Message> {
  return (call) => {
    const observed = new ObservedCall(route, call.metadata);
    observed.run(runServerStream, observed, impl, call);
  };
}

async function runServerStream(
  observed: ObservedCall,
  impl: ServerStreamImplementation,
  call: grpc.ServerWritableStream<Message, Message>,
): Promise<void> {
  const { route } = observed;
  let code = 0;
  try {
    const ctx = new GrpcHandlerContext(route.service, route.method, call);
    let first = true;
    for await (const response of impl(call.request, ctx)) {
      if (call.cancelled) break;
      if (first) ctx.sendResponseHeader();
      first = false;
      if (!call.write(create(route.method.output, response as never))) await drained(call);
    }
    call.end(ctx.responseTrailerMetadata());
  } catch (err) {
    const error = callError(err, call, route);
    code = error.code;
    // grpc-js turns an 'error' event on the stream into the call's status.
    call.emit('error', toGrpcStatus(error));
  }
  observed.finish(code);
}

function drained(call: grpc.ServerWritableStream<Message, Message>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      resolve();
    };
    call.once('drain', done);
    call.once('cancelled', done);
  });
}

function codeName(code: Code): string {
  return (Code[code] ?? 'unknown').replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
