import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { isTracingSuppressed } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { traceHeadersOf } from '@qr-payout/platform/telemetry';
import { deliveryTraceContextOf, inAttemptSpan } from './attempt-span';
import type { ClaimedDelivery } from './store';

const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager();
let provider: BasicTracerProvider;

beforeAll(() => {
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

// The dispatcher's process span, as the delivery row stores it.
function storedContext() {
  const processSpan = trace.getTracer('test').startSpan('process payout.transaction-events.v1');
  processSpan.end();
  return { processSpan, stored: deliveryTraceContextOf(trace.setSpan(ROOT_CONTEXT, processSpan))! };
}

const TOKEN = 'tok_5ecret';
function delivery(overrides: Partial<ClaimedDelivery> = {}) {
  return {
    id: 'whd_01',
    eventId: '0b0f7f5e-8a4d-4c55-9d0e-1f1f2b3c4d5e',
    url: `https://user:pass@hooks.example.com:8443/in/orders?token=${TOKEN}#frag`,
    attempts: 2,
    trigger: 'scheduled' as const,
    traceContext: null,
    ...overrides,
  };
}

const only = (): ReadableSpan => {
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  return spans[0]!;
};

describe('inAttemptSpan', () => {
  it('makes the attempt a CLIENT span POST under the stored context, by the HTTP conventions', async () => {
    const { processSpan, stored } = storedContext();
    exporter.reset();
    const outcome = { succeeded: true, responseStatus: 204, errorClass: null };
    expect(await inAttemptSpan(delivery({ traceContext: stored }), async () => outcome)).toBe(outcome);
    const span = only();
    expect(span.name).toBe('POST');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.spanContext().traceId).toBe(processSpan.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(processSpan.spanContext().spanId);
    expect(span.attributes).toEqual({
      'http.request.method': 'POST',
      'url.full': 'https://hooks.example.com:8443/in/orders',
      'server.address': 'hooks.example.com',
      'server.port': 8443,
      'http.response.status_code': 204,
      'webhook.attempt': 3,
      'webhook.delivery.id': 'whd_01',
      'webhook.event.id': '0b0f7f5e-8a4d-4c55-9d0e-1f1f2b3c4d5e',
      'webhook.trigger': 'scheduled',
    });
    expect(span.status.code).toBe(0);
  });

  it('never shows the URL’s credentials, query or fragment', async () => {
    await inAttemptSpan(delivery(), async () => ({ succeeded: true, responseStatus: 200, errorClass: null }));
    const values = Object.values(only().attributes).map(String).join(' ');
    for (const secret of [TOKEN, 'pass', 'user', 'frag']) expect(values).not.toContain(secret);
  });

  it('marks a failed attempt as an error with its error.type; without a stored context it is a root span', async () => {
    await inAttemptSpan(delivery(), async () => ({
      succeeded: false,
      responseStatus: 500,
      errorClass: 'http_status',
    }));
    await inAttemptSpan(delivery(), async () => ({
      succeeded: false,
      responseStatus: null,
      errorClass: 'timeout',
    }));
    const [answered, timedOut] = exporter.getFinishedSpans();
    expect(answered!.parentSpanContext).toBeUndefined();
    expect(answered!.attributes['error.type']).toBe('500');
    expect(answered!.attributes['http.response.status_code']).toBe(500);
    expect(answered!.status.code).toBe(2);
    expect(timedOut!.attributes['error.type']).toBe('timeout');
    expect(timedOut!.attributes['http.response.status_code']).toBeUndefined();
  });

  it('suppresses tracing below the span, so the http instrumentation adds no second span', async () => {
    let suppressed = false;
    let active: string | undefined;
    await inAttemptSpan(delivery(), async () => {
      suppressed = isTracingSuppressed(context.active());
      active = trace.getSpan(context.active())?.spanContext().spanId;
      return { succeeded: true, responseStatus: 200, errorClass: null };
    });
    expect(suppressed).toBe(true);
    expect(active).toBe(only().spanContext().spanId);
  });
});

describe('deliveryTraceContextOf', () => {
  it('is null outside a trace (telemetry off stores NULL), the W3C context inside one', () => {
    expect(deliveryTraceContextOf(undefined)).toBeNull();
    expect(deliveryTraceContextOf(ROOT_CONTEXT)).toBeNull();
    const { processSpan, stored } = storedContext();
    expect(stored).toEqual({
      traceparent: traceHeadersOf(trace.setSpan(ROOT_CONTEXT, processSpan))['traceparent'],
      tracestate: null,
    });
  });
});
