import { ROOT_CONTEXT, type SpanContext, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { SamplerConfigError, samplerFromEnv } from './sampler';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** A context whose parent span came from elsewhere, sampled or not. */
function remoteParent(sampled: boolean) {
  const parent: SpanContext = {
    traceId: TRACE_ID,
    spanId: '00f067aa0ba902b7',
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  };
  return trace.setSpanContext(ROOT_CONTEXT, parent);
}

const HTTP_IN = { 'http.request.method': 'POST' };
const GRPC_IN = { 'rpc.system': 'grpc', 'rpc.service': 'payout.payout.v1.PayoutService' };

function decide(env: NodeJS.ProcessEnv, ctx = ROOT_CONTEXT, kind = SpanKind.SERVER, attributes = {}) {
  return samplerFromEnv(env).shouldSample(ctx, TRACE_ID, 'span', kind, attributes, []).decision;
}

const NEVER = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' };
const ALWAYS = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1' };

describe('samplerFromEnv', () => {
  it("does not let a client's sampled flag force a trace on an incoming HTTP request", () => {
    expect(decide(NEVER, remoteParent(true), SpanKind.SERVER, HTTP_IN)).toBe(SamplingDecision.NOT_RECORD);
    // Older semantic conventions name the method http.method.
    expect(decide(NEVER, remoteParent(true), SpanKind.SERVER, { 'http.method': 'GET' })).toBe(
      SamplingDecision.NOT_RECORD,
    );
  });

  it("does not let a client's unsampled flag suppress one either", () => {
    expect(decide(ALWAYS, remoteParent(false), SpanKind.SERVER, HTTP_IN)).toBe(
      SamplingDecision.RECORD_AND_SAMPLED,
    );
  });

  it('follows a parent from inside the system (a gRPC hop, an event), so a trace is kept whole', () => {
    expect(decide(NEVER, remoteParent(true), SpanKind.SERVER, GRPC_IN)).toBe(
      SamplingDecision.RECORD_AND_SAMPLED,
    );
    expect(decide(ALWAYS, remoteParent(false), SpanKind.SERVER, GRPC_IN)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(NEVER, remoteParent(true), SpanKind.CONSUMER, { 'messaging.system': 'kafka' })).toBe(
      SamplingDecision.RECORD_AND_SAMPLED,
    );
  });

  it("follows the client's flag when TRACES_HONOR_CLIENT_SAMPLED=true", () => {
    const env = { ...NEVER, TRACES_HONOR_CLIENT_SAMPLED: 'true' };
    expect(decide(env, remoteParent(true), SpanKind.SERVER, HTTP_IN)).toBe(
      SamplingDecision.RECORD_AND_SAMPLED,
    );
  });

  it('decides a new trace by OTEL_TRACES_SAMPLER and its ratio (default: always on)', () => {
    expect(decide({})).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(NEVER)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide({ OTEL_TRACES_SAMPLER: 'always_off' })).toBe(SamplingDecision.NOT_RECORD);
    // A plain sampler follows no parent at all, as the specification says.
    expect(decide({ OTEL_TRACES_SAMPLER: 'always_off' }, remoteParent(true), SpanKind.SERVER, GRPC_IN)).toBe(
      SamplingDecision.NOT_RECORD,
    );
  });

  it('refuses a sampler, ratio or flag it cannot read, naming the variable', () => {
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(
      /OTEL_TRACES_SAMPLER must be/,
    );
    expect(() => samplerFromEnv({ ...NEVER, OTEL_TRACES_SAMPLER_ARG: '5%' })).toThrow(SamplerConfigError);
    expect(() => samplerFromEnv({ TRACES_HONOR_CLIENT_SAMPLED: 'yes' })).toThrow(
      /TRACES_HONOR_CLIENT_SAMPLED/,
    );
  });
});
