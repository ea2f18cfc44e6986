import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  /** Default GET. */
  method?: 'GET' | 'POST';
  /** Sent as is with every request (POST benches). */
  body?: string;
  headers?: Record<string, string>;
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  durationSeconds: number;
  /** Every answered request, any status. */
  responses: number;
  errors: number;
  non2xx: number;
  /** Latency of every 2xx response in ms, at full resolution (autocannon's histogram keeps whole ms). */
  latenciesMs: Float64Array;
  /** autocannon's own p99 (whole milliseconds), reported beside ours. */
  autocannonP99Ms: number;
}

/** One autocannon run; latencies are collected per response so percentiles keep sub-ms resolution. */
export function runLoad(opts: LoadOptions): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: opts.url,
        method: opts.method ?? 'GET',
        ...(opts.body !== undefined ? { body: opts.body } : {}),
        headers: opts.headers,
        connections: opts.connections,
        duration: opts.durationSeconds,
      },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          durationSeconds: result.duration,
          responses: result.requests.total,
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
          latenciesMs: latencies.subarray(0, count),
          autocannonP99Ms: result.latency.p99,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode < 200 || statusCode > 299) return;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTimeMs;
    });
  });
}

/** Nearest-rank percentile of unsorted samples (q in 0..1). */
export function percentile(samples: Float64Array, q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}
