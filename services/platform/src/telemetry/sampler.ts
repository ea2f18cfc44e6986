// Whose decision a trace's sampling is (docs/architecture.md "Sampling and personal data"). The
// standard OTEL_TRACES_SAMPLER picks the decision for a trace that starts here; a parent from
// inside the system (another service's gRPC call, an event our relay published) is followed, so a
// trace is kept or dropped as a whole; a parent sent by a client over HTTP is not: its sampled flag
// would let any caller force (or suppress) tracing of its requests, and with it the tracing
// backend's cost. The client's trace id is kept either way, so its trace still joins ours when we
// sample. TRACES_HONOR_CLIENT_SAMPLED=true follows the client's flag instead.
import { type Attributes, type Context, type Link, SpanKind, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  type Sampler,
  type SamplingResult,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';

/** OTEL_TRACES_SAMPLER's value, read as the OpenTelemetry specification lists them. */
type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

const SAMPLER_NAMES = new Set<string>([
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
]);

export class SamplerConfigError extends Error {}

/** OTEL_TRACES_SAMPLER_ARG as a ratio in [0, 1] (the SDK's default 1 when unset). */
function ratioOf(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const ratio = Number(raw);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new SamplerConfigError(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, got ${raw}`);
  return ratio;
}

/** Incoming HTTP: the one kind of span whose remote parent a client outside the system sent. */
function isIncomingHttp(kind: SpanKind, attributes: Attributes): boolean {
  return (
    kind === SpanKind.SERVER &&
    (attributes['http.request.method'] !== undefined || attributes['http.method'] !== undefined)
  );
}

/** The sampler of a service (see the top of this file). */
export class OwnDecisionSampler implements Sampler {
  private readonly followParent: Sampler;

  constructor(
    /** The decision for a trace that starts here (or whose parent is a client's). */
    private readonly own: Sampler,
    /** false for the plain samplers (always_on, always_off, traceidratio): no parent is followed. */
    parentBased: boolean,
    private readonly honorClientSampled: boolean,
  ) {
    this.followParent = parentBased ? new ParentBasedSampler({ root: own }) : own;
  }

  shouldSample(
    context: Context,
    traceId: string,
    spanName: string,
    spanKind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const parent = trace.getSpanContext(context);
    const fromClient = parent?.isRemote === true && isIncomingHttp(spanKind, attributes);
    const sampler = fromClient && !this.honorClientSampled ? this.own : this.followParent;
    return sampler.shouldSample(context, traceId, spanName, spanKind, attributes, links);
  }

  toString(): string {
    return `OwnDecisionSampler{own=${this.own.toString()}, client sampled flag ${this.honorClientSampled ? 'followed' : 'ignored'}}`;
  }
}

/** The sampler from OTEL_TRACES_SAMPLER(_ARG) and TRACES_HONOR_CLIENT_SAMPLED. */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const raw = (env['OTEL_TRACES_SAMPLER'] ?? '').trim().toLowerCase() || 'parentbased_always_on';
  if (!SAMPLER_NAMES.has(raw))
    throw new SamplerConfigError(
      `OTEL_TRACES_SAMPLER must be one of ${[...SAMPLER_NAMES].join(', ')}, got ${env['OTEL_TRACES_SAMPLER']}`,
    );
  const name = raw as SamplerName;
  const honor = (env['TRACES_HONOR_CLIENT_SAMPLED'] ?? '').trim().toLowerCase();
  if (honor !== '' && honor !== 'true' && honor !== 'false')
    throw new SamplerConfigError(
      `TRACES_HONOR_CLIENT_SAMPLED is true or false, got ${env['TRACES_HONOR_CLIENT_SAMPLED']}`,
    );
  const kind = name.replace(/^parentbased_/, '');
  const own =
    kind === 'always_on'
      ? new AlwaysOnSampler()
      : kind === 'always_off'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(ratioOf(env['OTEL_TRACES_SAMPLER_ARG']));
  return new OwnDecisionSampler(own, name.startsWith('parentbased_'), honor === 'true');
}
