import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { type CallOptions, Code } from '@connectrpc/connect';
import { Metadata } from '@grpc/grpc-js';
import {
  type Attributes,
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { Health } from '@qr-payout/proto/grpc/health/v1/health_pb';
import { requestContext } from '../context';
import { headersToMetadata } from './status';
import { metadataSetter, REQUEST_ID_HEADER } from './trace-headers';

// What the platform does around every client call: a CLIENT span whose W3C traceparent goes in
// the request metadata, and the current request id (and tenant) carried to the next service.

const TRACER = '@qr-payout/platform/grpc';
const TENANT_ID_HEADER = 'x-tenant-id';
const tracer = trace.getTracer(TRACER);

/** The per-method constants of a client call. */
export type ClientRoute = { readonly rpc: string; readonly attributes: Attributes; readonly health: boolean };

export function clientRoute(service: DescService, method: DescMethod): ClientRoute {
  return {
    rpc: `${service.typeName}/${method.name}`,
    health: service.typeName === Health.typeName,
    attributes: { 'rpc.system': 'grpc', 'rpc.service': service.typeName, 'rpc.method': method.name },
  };
}

/**
 * A CLIENT span for the call, a child of the active span; none (a non-recording span) for a
 * health check, which is not traffic (docs/architecture.md "Sampling and personal data").
 */
export function startClientSpan(route: ClientRoute): Span {
  if (route.health) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
  return tracer.startSpan(route.rpc, { kind: SpanKind.CLIENT, attributes: route.attributes });
}

export function endClientSpan(span: Span, code: number): void {
  span.setAttribute('rpc.grpc.status_code', code);
  if (code !== 0) span.setStatus({ code: SpanStatusCode.ERROR, message: Code[code] });
  span.end();
}

/**
 * The request metadata: the caller's headers, then the request id and tenant of the current
 * request context unless the caller set them, then the span's traceparent.
 */
export function requestMetadata(span: Span, headers: CallOptions['headers']): Metadata {
  const metadata = headers === undefined ? new Metadata() : headersToMetadata(new Headers(headers));
  const current = requestContext.get();
  if (current) {
    if (metadata.get(REQUEST_ID_HEADER).length === 0) metadata.set(REQUEST_ID_HEADER, current.requestId);
    if (current.tenantId && metadata.get(TENANT_ID_HEADER).length === 0) {
      metadata.set(TENANT_ID_HEADER, current.tenantId);
    }
  }
  propagation.inject(trace.setSpan(context.active(), span), metadata, metadataSetter);
  return metadata;
}
