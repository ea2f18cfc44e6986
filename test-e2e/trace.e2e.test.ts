// One trace id across the real gateway → decoder hop: both processes export their spans over
// OTLP/HTTP to a receiver this test runs, and the decoder's server span must hang under the
// gateway's span of the same request (conventions: traces cross every hop).
import { randomBytes } from 'node:crypto';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  SPAN_KIND_CLIENT,
  SPAN_KIND_SERVER,
  type System,
  startOtlpReceiver,
  startSystem,
} from './harness';
import { call } from './support/http';

jest.setTimeout(120_000);

let receiver: OtlpReceiver;
let system: System;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // No scheme cache: every GET /v1/schemes is a gRPC call to the decoder.
  system = await startSystem({
    otlpTracesUrl: receiver.tracesUrl,
    gatewayEnv: { SCHEMES_CACHE_TTL_MS: '0' },
  });
}, 240_000);

afterAll(async () => {
  await system?.stop();
  await receiver?.close();
}, 60_000);

interface CrossProcessTrace {
  gatewayServer: ReceivedSpan;
  decoderServer: ReceivedSpan;
  decoderParent: ReceivedSpan;
}

/** The decoder ListSchemes server span whose parent is a gateway span under a gateway server span. */
function findCrossProcessTrace(spans: ReceivedSpan[]): CrossProcessTrace | undefined {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  for (const decoderServer of spans) {
    if (decoderServer.service !== 'decoder' || decoderServer.kind !== SPAN_KIND_SERVER) continue;
    if (!/ListSchemes/.test(decoderServer.name)) continue;
    const decoderParent = byId.get(decoderServer.parentSpanId);
    if (decoderParent?.service !== 'gateway') continue;
    // Walk up inside the gateway process to its server span for the HTTP request.
    let ancestor: ReceivedSpan | undefined = decoderParent;
    while (ancestor && ancestor.service === 'gateway' && ancestor.kind !== SPAN_KIND_SERVER) {
      ancestor = byId.get(ancestor.parentSpanId);
    }
    if (ancestor?.service === 'gateway' && ancestor.kind === SPAN_KIND_SERVER) {
      return { gatewayServer: ancestor, decoderServer, decoderParent };
    }
  }
  return undefined;
}

const describeSpans = (spans: ReceivedSpan[]) =>
  spans
    .map((s) => `${s.service} kind=${s.kind} ${s.name} trace=${s.traceId} parent=${s.parentSpanId}`)
    .join('\n');

test('GET /v1/schemes is one trace: gateway server span → gateway client span → decoder server span', async () => {
  const tenant = await system.createTenant(`e2e-trace-${randomBytes(4).toString('hex')}`);
  const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey: tenant.apiKey });
  expect(res.status).toBe(200);

  await receiver
    .waitFor((spans) => findCrossProcessTrace(spans) !== undefined, 20_000)
    .catch((err: Error) => {
      throw new Error(`${err.message}\nspans received:\n${describeSpans(receiver.spans)}`);
    });

  const trace = findCrossProcessTrace(receiver.spans)!;
  expect(trace.gatewayServer.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(trace.gatewayServer.traceId).not.toBe('0'.repeat(32));
  expect(trace.decoderServer.traceId).toBe(trace.gatewayServer.traceId);
  expect(trace.decoderParent.traceId).toBe(trace.gatewayServer.traceId);
  // The hop itself: the decoder's parent span was made in the gateway process, not in the decoder.
  expect(trace.decoderParent.service).toBe('gateway');
  expect(trace.decoderParent.kind).toBe(SPAN_KIND_CLIENT);
  expect(trace.decoderServer.parentSpanId).toBe(trace.decoderParent.spanId);
  expect(trace.gatewayServer.name).toMatch(/GET/);
});
