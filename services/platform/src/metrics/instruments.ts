import { type Histogram, metrics } from '@opentelemetry/api';

/**
 * Bucket bounds of every duration histogram, in seconds: the OpenTelemetry semantic conventions'
 * advice for HTTP and RPC durations (the SDK's default bounds are for milliseconds).
 */
export const DURATION_BUCKETS_SECONDS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/**
 * A duration histogram in seconds, named as Prometheus shows it (`…_duration_seconds`): the
 * exporter keeps the name and adds no unit suffix. Made from the global MeterProvider, so call it
 * after startMetrics (in a factory, never at import).
 */
export function durationHistogram(meterName: string, name: string, description: string): Histogram {
  return metrics.getMeter(meterName).createHistogram(name, {
    description,
    unit: 's',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_SECONDS },
  });
}

/** Seconds since `startedMs` (a performance.now() reading). */
export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
