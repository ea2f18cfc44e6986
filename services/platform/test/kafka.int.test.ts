import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type BusMessage, createKafkaBus } from '@qr-payout/platform/events';
import { silentLogger } from '@qr-payout/platform/log';
import { shutdownTelemetry, startTelemetry } from '@qr-payout/platform/telemetry';
import { testInfra } from '@qr-payout/test-kit/infra';

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

const BROKERS = testInfra.kafkaBrokers;

jest.setTimeout(120_000);

// The shared Kafka may still be starting: wait for its port before the suite.
async function waitForPort(hostPort: string, timeoutMs: number): Promise<void> {
  const [host, port] = hostPort.split(':');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(port), host!, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`Kafka not reachable at ${hostPort}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

function waitFor<T>(items: T[], count: number, timeoutMs = 60_000): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (items.length >= count) return resolve(items);
      if (Date.now() > deadline) return reject(new Error(`got ${items.length} of ${count} messages`));
      setTimeout(check, 50);
    };
    check();
  });
}

describe('Kafka event bus (real Kafka)', () => {
  const exporter = new InMemorySpanExporter();
  const run = randomBytes(6).toString('hex');
  const bus = createKafkaBus({ brokers: BROKERS, clientId: `platform-test-${run}`, logger: silentLogger() });

  beforeAll(async () => {
    await waitForPort(BROKERS[0]!, 60_000);
    startTelemetry({
      serviceName: 'platform-kafka-test',
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
  });

  const topic = `platform-test-${run}`;

  afterAll(async () => {
    await bus.deleteTopics([topic]).catch(() => {});
    await bus.close();
    await shutdownTelemetry();
  });

  it('round trips key, value, headers and the trace context; commits after handle', async () => {
    await bus.ensureTopics([topic], 1);
    const received: BusMessage[] = [];
    let failedOnce = false;
    const sub = await bus.subscribe({
      topic,
      groupId: `platform-test-${run}`,
      handle: async (message) => {
        // The first delivery fails: the offset is not committed and the message comes again.
        if (!failedOnce) {
          failedOnce = true;
          throw new Error('transient');
        }
        received.push(message);
      },
    });
    const root = await trace.getTracer('test').startActiveSpan('settle', async (span) => {
      await bus.publish(topic, [
        {
          key: 'txn_01JD',
          value: new Uint8Array([8, 1, 18, 3, 66, 82, 76]),
          headers: { 'content-type': 'application/x-protobuf', 'event-type': 'transaction.settled' },
        },
      ]);
      span.end();
      return span.spanContext();
    });
    await waitFor(received, 1);
    await sub.stop();

    const [message] = received;
    expect(failedOnce).toBe(true);
    expect(message!.key).toBe('txn_01JD');
    expect([...message!.value]).toEqual([8, 1, 18, 3, 66, 82, 76]);
    expect(message!.headers['content-type']).toBe('application/x-protobuf');
    expect(message!.headers['event-type']).toBe('transaction.settled');
    expect(message!.headers['traceparent']).toMatch(new RegExp(`^00-${root.traceId}-[0-9a-f]{16}-01$`));

    const spans = exporter.getFinishedSpans();
    const producer = spans.find((s) => s.kind === SpanKind.PRODUCER && s.name === `publish ${topic}`);
    const consumers = spans.filter((s) => s.kind === SpanKind.CONSUMER && s.name === `process ${topic}`);
    expect(producer?.spanContext().traceId).toBe(root.traceId);
    expect(consumers.length).toBeGreaterThanOrEqual(2);
    expect(parentOf(producer!)).toBe(root.spanId);
    expect(producer!.attributes).toMatchObject({
      'messaging.system': 'kafka',
      'messaging.destination.name': topic,
      'messaging.operation.type': 'publish',
      'messaging.kafka.message.key': 'txn_01JD',
    });
    // The message carries the producer span's context, not the settle span's.
    expect(message!.headers['traceparent']).toBe(`00-${root.traceId}-${producer!.spanContext().spanId}-01`);
    for (const consumer of consumers) {
      expect(consumer.spanContext().traceId).toBe(root.traceId);
      expect(parentOf(consumer)).toBe(producer!.spanContext().spanId);
      expect(consumer.attributes).toMatchObject({
        'messaging.system': 'kafka',
        'messaging.destination.name': topic,
        'messaging.operation.type': 'process',
        'messaging.consumer.group.name': `platform-test-${run}`,
      });
    }
    // The handler got the context of its message's process span.
    expect(trace.getSpanContext(message!.traceContext!)?.spanId).toBe(
      consumers.find((c) => c.status.code === 0)?.spanContext().spanId,
    );

    // A new consumer in the same group starts after the committed offset: nothing is redelivered.
    const again: BusMessage[] = [];
    const second = await bus.subscribe({
      topic,
      groupId: `platform-test-${run}`,
      handle: async (m) => void again.push(m),
    });
    await bus.publish(topic, [{ key: 'txn_02', value: new Uint8Array([1]), headers: {} }]);
    await waitFor(again, 1);
    await second.stop();
    expect(again.map((m) => m.key)).toEqual(['txn_02']);
  });
});
