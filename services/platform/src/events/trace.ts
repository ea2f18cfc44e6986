import { type Attributes, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { extractTraceContext, traceHeadersOf } from '../telemetry/trace-context';
import type { BusMessage } from './bus';

// Spans of the event bus by the OpenTelemetry messaging semantic conventions, and the W3C trace
// context in message headers (docs/architecture.md "Traces"): one PRODUCER span `publish <topic>`
// per message, child of the context the message was written in (an outbox row's stored
// traceparent, else the active context), whose own context replaces the message's traceparent;
// one CONSUMER span `process <topic>` per received message, child of that producer span.
// Without a telemetry SDK the tracer is a no-op: spans do not record and no header is touched.

const TRACER = '@qr-payout/platform/events';
const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

function messageAttributes(
  system: string,
  topic: string,
  operation: 'publish' | 'process',
  message: BusMessage,
): Attributes {
  const attributes: Attributes = {
    'messaging.system': system,
    'messaging.destination.name': topic,
    'messaging.operation.type': operation,
    'messaging.operation.name': operation,
  };
  // Our keys are ids (a transaction id), never a secret; the event id is the message's id.
  if (system === 'kafka' && message.key !== '') attributes['messaging.kafka.message.key'] = message.key;
  const eventId = message.headers['event-id'];
  if (eventId) attributes['messaging.message.id'] = eventId;
  return attributes;
}

/** The producer spans of one publish call, and the headers to send (each with its span's context). */
export type PublishSpans = {
  headers: Array<Record<string, string>>;
  /** Ends every span, with an error status when the publish failed. */
  end(err?: unknown): void;
};

/**
 * Starts one PRODUCER span `publish <topic>` per message. Its parent is the trace context in the
 * message's headers (written with the outbox row, relayed later by a loop with no context of its
 * own), else the active context; the headers sent carry the producer span's context instead, so
 * the consumer's span is its child.
 */
export function startPublishSpans(
  topic: string,
  messages: readonly BusMessage[],
  system: string,
): PublishSpans {
  const tracer = trace.getTracer(TRACER);
  const spans: Span[] = [];
  const headers = messages.map((message) => {
    const parent = extractTraceContext(message.headers);
    const span = tracer.startSpan(
      `publish ${topic}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          ...messageAttributes(system, topic, 'publish', message),
          ...(messages.length > 1 ? { 'messaging.batch.message_count': messages.length } : {}),
        },
      },
      parent,
    );
    spans.push(span);
    if (!span.isRecording()) return message.headers;
    const out = { ...message.headers };
    for (const name of TRACE_HEADERS) delete out[name];
    return Object.assign(out, traceHeadersOf(trace.setSpan(parent, span)));
  });
  return {
    headers,
    end(err) {
      for (const span of spans) {
        if (err !== undefined) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      }
    },
  };
}

/**
 * Runs `fn` over a batch of received messages with one CONSUMER span `process <topic>` per
 * message, each the child of the trace context in its headers (the producer span). Each message is
 * handed on with `traceContext` set to its span's context, so what the handler makes of it (a
 * webhook delivery) can continue that trace; the handler itself runs in the first message's span.
 * A failure is recorded on every span of the batch.
 */
export async function inConsumerSpans<T>(
  topic: string,
  groupId: string,
  batch: readonly BusMessage[],
  system: string,
  fn: (messages: BusMessage[]) => Promise<T>,
): Promise<T> {
  const tracer = trace.getTracer(TRACER);
  const active = context.active();
  const spans: Span[] = [];
  const traced = batch.map((message) => {
    const parent = extractTraceContext(message.headers, active);
    const span = tracer.startSpan(
      `process ${topic}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          ...messageAttributes(system, topic, 'process', message),
          'messaging.consumer.group.name': groupId,
          ...(batch.length > 1 ? { 'messaging.batch.message_count': batch.length } : {}),
        },
      },
      parent,
    );
    spans.push(span);
    return { ...message, traceContext: trace.setSpan(parent, span) };
  });
  try {
    return await context.with(traced[0]?.traceContext ?? active, () => fn(traced));
  } catch (err) {
    for (const span of spans) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    throw err;
  } finally {
    for (const span of spans) span.end();
  }
}
