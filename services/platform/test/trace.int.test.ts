import { Writable } from 'node:stream';
import { context, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type BusMessage, createMemoryBus } from '@qr-payout/platform/events';
import { closeGrpcClients, createGrpcClient, createGrpcServer } from '@qr-payout/platform/grpc';
import { createLogger } from '@qr-payout/platform/log';
import { shutdownTelemetry, startTelemetry, traceHeadersOf } from '@qr-payout/platform/telemetry';
import { Health } from '@qr-payout/proto/grpc/health/v1/health_pb';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { registerFakeDecoder } from '@qr-payout/test-kit/fake-decoder';

type GrpcServer = ReturnType<typeof createGrpcServer>;

const exporter = new InMemorySpanExporter();
const lines: Record<string, unknown>[] = [];
let server: GrpcServer;
let baseUrl: string;

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

beforeAll(async () => {
  startTelemetry({ serviceName: 'platform-test', spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  server = createGrpcServer({
    serviceName: 'decoder',
    logger: createLogger({ service: 'decoder', destination }),
    register: registerFakeDecoder({ requestIds: [] }),
  });
  baseUrl = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
});

afterAll(async () => {
  await closeGrpcClients();
  await server.close({ graceMs: 1_000 });
  await shutdownTelemetry();
});

beforeEach(() => exporter.reset());

it('carries one trace across the gRPC hop: server span is the child of the client span', async () => {
  const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
  const tracer = trace.getTracer('test');
  const root = await tracer.startActiveSpan('POST /v1/qr/decode', async (span) => {
    await decoder.listSchemes({});
    span.end();
    return span.spanContext();
  });

  const spans = exporter.getFinishedSpans();
  const client = spans.find((s) => s.kind === SpanKind.CLIENT && s.name.endsWith('/ListSchemes'));
  const served = spans.find((s) => s.kind === SpanKind.SERVER && s.name.endsWith('/ListSchemes'));
  expect(client).toBeDefined();
  expect(served).toBeDefined();
  expect(client!.spanContext().traceId).toBe(root.traceId);
  expect(served!.spanContext().traceId).toBe(root.traceId);
  expect(parentOf(client!)).toBe(root.spanId);
  expect(parentOf(served!)).toBe(client!.spanContext().spanId);
  expect(served!.attributes['rpc.service']).toBe('payout.decoder.v1.DecoderService');
  expect(served!.attributes['rpc.grpc.status_code']).toBe(0);

  // The server's log line for the call carries the same trace.
  const line = lines.find((l) => l['msg'] === 'grpc call' && String(l['rpc']).endsWith('/ListSchemes'));
  expect(line?.['trace_id']).toBe(root.traceId);
  expect(line?.['span_id']).toBe(served!.spanContext().spanId);
});

it('records the status code of a failed call on both spans', async () => {
  const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
  await decoder.decode({ qrString: 'bad' }).catch(() => {});
  const spans = exporter.getFinishedSpans().filter((s) => s.name.endsWith('/Decode'));
  expect(spans.map((s) => s.attributes['rpc.grpc.status_code'])).toEqual([3, 3]);
});

it('carries the trace through an event bus message to the consumer span', async () => {
  const bus = createMemoryBus();
  const received: Record<string, string>[] = [];
  await bus.subscribe({ topic: 'txn', groupId: 'g', handle: async (m) => void received.push(m.headers) });
  const root = await trace.getTracer('test').startActiveSpan('settle', async (span) => {
    await bus.publish('txn', [{ key: 'txn_1', value: new Uint8Array([1]), headers: {} }]);
    span.end();
    return span.spanContext();
  });
  await bus.idle();
  await bus.close();
  expect(received[0]?.['traceparent']).toMatch(new RegExp(`^00-${root.traceId}-[0-9a-f]{16}-01$`));
  const spans = exporter.getFinishedSpans();
  const producer = spans.find((s) => s.kind === SpanKind.PRODUCER);
  const consumer = spans.find((s) => s.kind === SpanKind.CONSUMER);
  expect(producer?.spanContext().traceId).toBe(root.traceId);
  expect(consumer?.spanContext().traceId).toBe(root.traceId);
  expect(parentOf(consumer!)).toBe(producer!.spanContext().spanId);
});

it('relays a stored trace context: publish is its child, process the child of publish, and the handler gets that context', async () => {
  const bus = createMemoryBus();
  const received: BusMessage[] = [];
  await bus.subscribe({ topic: 'txn', groupId: 'g', handle: async (m) => void received.push(m) });
  // An outbox row written under the settle span and relayed later, outside any span.
  const settle = trace.getTracer('test').startSpan('settle');
  const stored = traceHeadersOf(trace.setSpan(ROOT_CONTEXT, settle));
  settle.end();
  await context.with(ROOT_CONTEXT, () =>
    bus.publish('txn', [
      { key: 'txn_1', value: new Uint8Array([1]), headers: { 'event-id': 'evt-1', ...stored } },
    ]),
  );
  await bus.idle();
  await bus.close();

  const spans = exporter.getFinishedSpans();
  const producer = spans.find((s) => s.kind === SpanKind.PRODUCER)!;
  const consumer = spans.find((s) => s.kind === SpanKind.CONSUMER)!;
  expect(producer.name).toBe('publish txn');
  expect(consumer.name).toBe('process txn');
  expect(parentOf(producer)).toBe(settle.spanContext().spanId);
  expect(parentOf(consumer)).toBe(producer.spanContext().spanId);
  expect(producer.attributes['messaging.message.id']).toBe('evt-1');
  expect(received[0]!.headers['traceparent']).toBe(
    `00-${settle.spanContext().traceId}-${producer.spanContext().spanId}-01`,
  );
  expect(trace.getSpanContext(received[0]!.traceContext!)?.spanId).toBe(consumer.spanContext().spanId);
});

it('gives each message of a batch its own process span, child of its own producer', async () => {
  const bus = createMemoryBus();
  const contexts: string[] = [];
  const roots = ['a', 'b'].map((name) => trace.getTracer('test').startSpan(name));
  const messages = roots.map((root, i) => ({
    key: `txn_${i}`,
    value: new Uint8Array([i]),
    headers: traceHeadersOf(trace.setSpan(ROOT_CONTEXT, root)),
  }));
  for (const root of roots) root.end();
  await bus.publish('batch', messages);
  await bus.subscribe({
    topic: 'batch',
    groupId: 'g',
    maxBatchSize: 10,
    handleBatch: async (batch) => {
      for (const m of batch) contexts.push(trace.getSpanContext(m.traceContext!)!.spanId);
    },
  });
  await bus.idle();
  await bus.close();
  const spans = exporter.getFinishedSpans();
  const consumers = spans.filter((s) => s.kind === SpanKind.CONSUMER && s.name === 'process batch');
  expect(consumers).toHaveLength(2);
  roots.forEach((root, i) => {
    const producer = spans.find(
      (s) => s.kind === SpanKind.PRODUCER && parentOf(s) === root.spanContext().spanId,
    )!;
    const consumer = consumers.find((s) => parentOf(s) === producer.spanContext().spanId)!;
    expect(consumer.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(contexts[i]).toBe(consumer.spanContext().spanId);
  });
});

// docs/architecture.md "Sampling and personal data". (The Redis and SQL spans' contents are
// checked in test-e2e/trace.e2e.test.ts: under jest the instrumentations cannot patch ioredis or
// pg, which jest loads through its own module registry.)
describe('health checks', () => {
  it('makes no span for a health check, even one carrying a sampled traceparent', async () => {
    const health = createGrpcClient(Health, { baseUrl, timeoutMs: 2_000 });
    await health.check(
      { service: '' },
      { headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } },
    );
    await health.check({ service: '' });
    // Neither the client's span nor the server's.
    expect(exporter.getFinishedSpans().filter((s) => s.name.includes('Health'))).toEqual([]);
    // An ordinary call right after still gets its span: the probe skipped only itself.
    const decoder = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
    await trace.getTracer('test').startActiveSpan('request', async (span) => {
      await decoder.listSchemes({});
      span.end();
    });
    expect(
      exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER && s.name.endsWith('/ListSchemes')),
    ).toBe(true);
  });
});
