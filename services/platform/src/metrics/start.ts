import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { metrics } from '@opentelemetry/api';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import { bool, int } from '../config';
import { dialUrl } from '../net/dial-url';

// One MeterProvider per process, read by a Prometheus exporter served on METRICS_PORT at /metrics
// (docs/runbooks.md "Metrics"). Independent of tracing: OTEL_SDK_DISABLED=true turns traces off
// only; METRICS_ENABLED=false turns this off.

/** The config readers of every deployable's metrics endpoint, for its loadConfig shape. */
export function metricsSettings() {
  return {
    metricsEnabled: bool('METRICS_ENABLED', { default: true }),
    // 9464: the port Prometheus' registry assigns the OpenTelemetry exporter. 0 picks a free one (tests).
    metricsPort: int('METRICS_PORT', { default: 9464, min: 0, max: 65535 }),
  };
}

export type RunningMetrics = {
  /** Where /metrics is served, e.g. http://127.0.0.1:9464/metrics. */
  readonly url: string;
};

type StartMetricsOptions = { port: number; host: string };

let running: { provider: MeterProvider; server: http.Server; url: string } | undefined;

/**
 * Registers the process's MeterProvider as the global one and serves its Prometheus text on
 * `/metrics` (anything else is 404). Call it before the service creates its instruments: the
 * OpenTelemetry API has no proxy meter, so an instrument made earlier stays a no-op. Once per
 * process; a second call returns the first endpoint.
 */
export async function startMetrics(opts: StartMetricsOptions): Promise<RunningMetrics> {
  if (running) return { url: running.url };
  // Loaded here, not at import: a process without metrics (unit tests, the sandbox) pays nothing.
  const { MeterProvider } =
    require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');
  const { PrometheusExporter } =
    require('@opentelemetry/exporter-prometheus') as typeof import('@opentelemetry/exporter-prometheus');
  // Our own server (not the exporter's): it binds HOST, supports port 0 and reports the port.
  const exporter = new PrometheusExporter({
    preventServerStart: true,
    withoutScopeInfo: true,
    withoutTargetInfo: true,
  });
  const provider = new MeterProvider({ readers: [exporter] });
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/metrics' || req.url?.startsWith('/metrics?'))) {
      exporter.getMetricsRequestHandler(req, res);
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  metrics.setGlobalMeterProvider(provider);
  const url = `${dialUrl(opts.host, (server.address() as AddressInfo).port)}/metrics`;
  running = { provider, server, url };
  return { url };
}

/** Stops serving /metrics and shuts the provider down (a shutdown step, before telemetry). */
export async function shutdownMetrics(): Promise<void> {
  const current = running;
  running = undefined;
  if (!current) return;
  await new Promise<void>((resolve) => {
    current.server.close(() => resolve());
    current.server.closeIdleConnections();
  });
  await current.provider.shutdown();
  metrics.disable();
}
