import { type Context, context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

// The W3C trace context as stored text (docs/architecture.md "Traces"): Kafka message headers, an
// outbox row's headers, a delivery row's traceparent/tracestate. Always W3C, whatever
// OTEL_PROPAGATORS says: the text outlives the process and is read by another service.

const w3c = new W3CTraceContextPropagator();

const recordGetter = {
  keys: (carrier: Record<string, string>) => Object.keys(carrier),
  get: (carrier: Record<string, string>, key: string) => carrier[key],
};
const recordSetter = {
  set: (carrier: Record<string, string>, key: string, value: string) => {
    carrier[key] = value;
  },
};

/** `ctx` with the remote span context that `headers.traceparent` names; `ctx` itself without one. */
export function extractTraceContext(
  headers: Readonly<Record<string, string | undefined>>,
  ctx: Context = context.active(),
): Context {
  return headers['traceparent'] ? w3c.extract(ctx, headers, recordGetter) : ctx;
}

/**
 * `traceparent` (and `tracestate` when there is one) of `ctx`'s span; empty when it has no valid
 * span context (telemetry off, or outside any trace).
 */
export function traceHeadersOf(ctx: Context = context.active()): Record<string, string> {
  const headers: Record<string, string> = {};
  w3c.inject(ctx, headers, recordSetter);
  return headers;
}
