// A MeterProvider registered as the global one, read on demand: what unit tests of a service's
// instruments collect instead of scraping /metrics (docs/runbooks.md "Metrics").
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  MeterProvider,
  type MetricData,
  MetricReader,
} from '@opentelemetry/sdk-metrics';

class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

export type CollectedMetrics = {
  /** Runs every observable callback and returns every metric recorded so far. */
  collect(): Promise<MetricData[]>;
  /** Shuts the provider down and unregisters it. */
  stop(): Promise<void>;
};

/** Registers a fresh global MeterProvider: make the instruments under test after this. */
export function collectGlobalMetrics(): CollectedMetrics {
  const reader = new OnDemandReader();
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  return {
    async collect() {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
    },
    async stop() {
      await provider.shutdown();
      metrics.disable();
    },
  };
}
