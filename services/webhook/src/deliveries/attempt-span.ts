import {
  type Attributes,
  type Context,
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { extractTraceContext, traceHeadersOf } from '@qr-payout/platform/telemetry';
import type { ClaimedDelivery, DeliveryTraceContext } from './store';

// The trace of a webhook delivery (docs/architecture.md "Traces"): the dispatcher stores the W3C
// context of its `process` span on each delivery row, and every attempt, a retry hours later
// included, is a CLIENT span `POST` under it, named and described by the HTTP semantic
// conventions. No header, body, signature or query string reaches an attribute.

const TRACER = '@qr-payout/webhook/deliveries';

/** The context to store on a delivery row; null without a span context (telemetry off). */
export function deliveryTraceContextOf(ctx: Context | undefined): DeliveryTraceContext | null {
  if (!ctx) return null;
  const headers = traceHeadersOf(ctx);
  const traceparent = headers['traceparent'];
  return traceparent ? { traceparent, tracestate: headers['tracestate'] ?? null } : null;
}

/**
 * `url.full` as a span may show it: scheme, host, port and path. User info, query and fragment are
 * dropped, since receivers put tokens there.
 */
export function spanUrlOf(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** What the span records of an attempt's outcome. */
export type AttemptSummary = {
  succeeded: boolean;
  responseStatus: number | null;
  /** Why it got no 2xx (`http_status`, `timeout`, `refused_target`, ...); null on success. */
  errorClass: string | null;
};

type TracedDelivery = Pick<
  ClaimedDelivery,
  'id' | 'eventId' | 'url' | 'attempts' | 'trigger' | 'traceContext'
>;

function requestAttributes(delivery: TracedDelivery): Attributes {
  const attributes: Attributes = {
    'http.request.method': 'POST',
    'webhook.attempt': delivery.attempts + 1,
    'webhook.delivery.id': delivery.id,
    'webhook.event.id': delivery.eventId,
    'webhook.trigger': delivery.trigger,
  };
  try {
    const url = new URL(delivery.url);
    attributes['url.full'] = spanUrlOf(url);
    attributes['server.address'] = url.hostname;
    attributes['server.port'] = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  } catch {
    // Stored URLs were validated at registration; an unreadable one just goes without.
  }
  return attributes;
}

/**
 * Runs one attempt of `delivery` in its CLIENT span, the child of the delivery's stored trace
 * context (a root span when none was stored). The attempt runs with tracing suppressed below the
 * span, so the http instrumentation adds no second span carrying the full URL. Without a telemetry
 * SDK the span does not record and `attempt` runs as is.
 */
export async function inAttemptSpan<T extends AttemptSummary>(
  delivery: TracedDelivery,
  attempt: () => Promise<T>,
): Promise<T> {
  const parent = delivery.traceContext
    ? extractTraceContext(
        {
          traceparent: delivery.traceContext.traceparent,
          ...(delivery.traceContext.tracestate ? { tracestate: delivery.traceContext.tracestate } : {}),
        },
        ROOT_CONTEXT,
      )
    : ROOT_CONTEXT;
  const span = trace
    .getTracer(TRACER)
    .startSpan('POST', { kind: SpanKind.CLIENT, attributes: requestAttributes(delivery) }, parent);
  if (!span.isRecording()) {
    span.end();
    return attempt();
  }
  try {
    const outcome = await context.with(suppressTracing(trace.setSpan(parent, span)), attempt);
    if (outcome.responseStatus !== null)
      span.setAttribute('http.response.status_code', outcome.responseStatus);
    if (!outcome.succeeded) {
      // error.type: the status code for an HTTP answer, else our class of failure.
      const errorType =
        outcome.errorClass === 'http_status' && outcome.responseStatus !== null
          ? String(outcome.responseStatus)
          : (outcome.errorClass ?? '_OTHER');
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return outcome;
  } catch (err) {
    // The error's name only: a message may quote the target's URL.
    span.setAttribute('error.type', err instanceof Error ? err.name : '_OTHER');
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}
