import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

type TelemetryOptions = {
  serviceName: string;
  /**
   * Replace the exporters chosen from OTEL_* (tests pass a SimpleSpanProcessor over an
   * InMemorySpanExporter). When absent, traces go to OTLP (http/protobuf by default).
   */
  spanProcessors?: SpanProcessor[];
  env?: NodeJS.ProcessEnv;
};

let sdk: NodeSDK | undefined;

/**
 * Starts the OpenTelemetry Node SDK once per process. Call it before the service's modules load
 * (preload.ts) so the http, pg and ioredis instrumentations can patch them. Exporters follow the
 * standard OTEL_* variables; OTEL_SDK_DISABLED=true makes this a no-op that patches nothing.
 * Returns whether the SDK runs.
 */
export function startTelemetry(opts: TelemetryOptions): boolean {
  if (sdk) return true;
  const env = opts.env ?? process.env;
  // Checked before anything is created: the instrumentations patch http, pg and ioredis as soon as
  // they are constructed, even under a disabled SDK, and that patching cost ~17% of the gateway's
  // CPU on every request with tracing off.
  if (isTelemetryDisabled(env)) return false;
  // Loaded here, not at import: services and unit tests that never start telemetry don't pay for
  // the SDK, and the preload stays synchronous so instrumentations patch before the app loads.
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');

  const { samplerFromEnv } = require('./sampler') as typeof import('./sampler');

  sdk = new NodeSDK({
    serviceName: env['OTEL_SERVICE_NAME'] || opts.serviceName,
    // Ours, not a client's: its sampled flag is not followed (sampler.ts).
    sampler: samplerFromEnv(env),
    ...(opts.spanProcessors ? { spanProcessors: opts.spanProcessors as never } : {}),
    // Traces only. Metrics have their own MeterProvider, Prometheus on METRICS_PORT, whether or not
    // tracing runs (src/metrics/start.ts): the SDK must not register a second one, whatever
    // OTEL_METRICS_EXPORTER says. Logs are exported only when OTEL_LOGS_EXPORTER asks for it.
    metricReaders: [],
    ...(env['OTEL_LOGS_EXPORTER'] ? {} : { logRecordProcessors: [] }),
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes would drown the traces that matter.
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|livez|metrics)\b/.test(req.url ?? ''),
        // An outgoing call outside any request (a background retry) would start a trace of its own.
        requireParentforOutgoingSpans: true,
      }),
      // The SQL text only: parameters (payer data, amounts) never go on spans.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      // The command name only. The default serializer puts the first argument on the span (and
      // every argument of some commands): idempotency keys, and through EVALSHA's arguments the
      // cached pay answers with merchant, payer and account (docs/architecture.md "Sampling and
      // personal data").
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  return true;
}

/** OTEL_SDK_DISABLED as the OpenTelemetry spec reads it: `true`, case-insensitive, disables. */
export function isTelemetryDisabled(env: NodeJS.ProcessEnv): boolean {
  return (env['OTEL_SDK_DISABLED'] ?? '').trim().toLowerCase() === 'true';
}

/** Flushes pending spans and stops the SDK; the last shutdown step. */
export async function shutdownTelemetry(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
