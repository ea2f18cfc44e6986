import { loadConfig } from '../config';
import { durationHistogram } from './instruments';
import { metricsSettings, shutdownMetrics, startMetrics } from './start';

async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return response.text();
}

describe('metrics', () => {
  afterEach(() => shutdownMetrics());

  it('reads METRICS_ENABLED and METRICS_PORT, 9464 by default', () => {
    expect(loadConfig(metricsSettings(), {})).toEqual({ metricsEnabled: true, metricsPort: 9464 });
    expect(loadConfig(metricsSettings(), { METRICS_ENABLED: 'false', METRICS_PORT: '0' })).toEqual({
      metricsEnabled: false,
      metricsPort: 0,
    });
    expect(() => loadConfig(metricsSettings(), { METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  it('serves what the instruments recorded as Prometheus text, in seconds buckets', async () => {
    const { url } = await startMetrics({ port: 0, host: '127.0.0.1' });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const histogram = durationHistogram('test', 'test_call_duration_seconds', 'A test duration');
    histogram.record(0.03, { 'rpc.method': 'Decode', 'rpc.grpc.status_code': 0 });
    histogram.record(2, { 'rpc.method': 'Decode', 'rpc.grpc.status_code': 0 });

    const text = await scrape(url);
    expect(text).toContain('# TYPE test_call_duration_seconds histogram');
    // Attribute dots become underscores; buckets are the seconds bounds.
    expect(text).toContain(
      'test_call_duration_seconds_count{rpc_method="Decode",rpc_grpc_status_code="0"} 2',
    );
    expect(text).toContain(
      'test_call_duration_seconds_bucket{rpc_method="Decode",rpc_grpc_status_code="0",le="0.05"} 1',
    );
    expect(text).toContain(
      'test_call_duration_seconds_bucket{rpc_method="Decode",rpc_grpc_status_code="0",le="2.5"} 2',
    );
    expect((await fetch(url.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('stops serving at shutdown, and instruments made afterwards record nothing', async () => {
    const { url } = await startMetrics({ port: 0, host: '127.0.0.1' });
    await shutdownMetrics();
    await expect(fetch(url)).rejects.toThrow();
    // The global provider is gone: a new instrument is a no-op and does not throw.
    durationHistogram('test', 'after_shutdown_seconds', 'nothing').record(1);
  });
});
