import { type Context, context, propagation, type Span, SpanKind, trace } from '@opentelemetry/api';

const TRACER = '@qr-payout/platform/events';

const recordGetter = {
  keys: (carrier: Record<string, string>) => Object.keys(carrier),
  get: (carrier: Record<string, string>, key: string) => carrier[key],
};

/** A PRODUCER span for one publish call. */
export function startPublishSpan(topic: string, count: number, system: string): Span {
  return trace.getTracer(TRACER).startSpan(`${topic} publish`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      'messaging.system': system,
      'messaging.destination.name': topic,
      'messaging.operation.type': 'publish',
      'messaging.batch.message_count': count,
    },
  });
}

/**
 * The message's headers with the W3C trace context of `ctx` added. A message that already carries
 * a traceparent (an outbox row relayed later) keeps the trace it was written in.
 */
export function withTraceHeaders(headers: Record<string, string>, ctx: Context): Record<string, string> {
  if (headers['traceparent']) return { ...headers };
  const out = { ...headers };
  propagation.inject(ctx, out);
  return out;
}

/** Runs `fn` as the active span's work; records a failure on the span; ends it. */
async function runInSpan<T>(span: Span, parent: Context, fn: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), fn);
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: 2 });
    throw err;
  } finally {
    span.end();
  }
}

/**
 * Runs `fn` for a batch in a CONSUMER span whose parent is the first message's trace context and
 * which links every message's own, so each producer's trace reaches the batch that handled it.
 */
export async function inBatchConsumerSpan<T>(
  topic: string,
  groupId: string,
  batch: Array<Record<string, string>>,
  system: string,
  fn: () => Promise<T>,
): Promise<T> {
  if (batch.length === 1) return inConsumerSpan(topic, groupId, batch[0]!, system, fn);
  const contexts = batch.map((headers) => propagation.extract(context.active(), headers, recordGetter));
  const parent = contexts[0] ?? context.active();
  const links = contexts.flatMap((ctx) => {
    const spanContext = trace.getSpanContext(ctx);
    return spanContext ? [{ context: spanContext }] : [];
  });
  const span = trace.getTracer(TRACER).startSpan(
    `${topic} process`,
    {
      kind: SpanKind.CONSUMER,
      links,
      attributes: {
        'messaging.system': system,
        'messaging.destination.name': topic,
        'messaging.consumer.group.name': groupId,
        'messaging.operation.type': 'process',
        'messaging.batch.message_count': batch.length,
      },
    },
    parent,
  );
  return runInSpan(span, parent, fn);
}

/** Runs `fn` in a CONSUMER span whose parent is the trace context found in the headers. */
async function inConsumerSpan<T>(
  topic: string,
  groupId: string,
  headers: Record<string, string>,
  system: string,
  fn: () => Promise<T>,
): Promise<T> {
  const parent = propagation.extract(context.active(), headers, recordGetter);
  const span = trace.getTracer(TRACER).startSpan(
    `${topic} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': system,
        'messaging.destination.name': topic,
        'messaging.consumer.group.name': groupId,
        'messaging.operation.type': 'process',
      },
    },
    parent,
  );
  return runInSpan(span, parent, fn);
}
