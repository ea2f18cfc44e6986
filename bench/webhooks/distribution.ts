// The latency distribution and CPU rows every part of the webhooks bench measures with; its own
// module so the floor, the latency run and the report share them without importing one another.

export interface Distribution {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function distribution(samples: readonly number[]): Distribution {
  const sorted = Float64Array.from(samples.filter(Number.isFinite)).sort();
  const at = (q: number) =>
    sorted.length === 0
      ? Number.NaN
      : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return {
    count: sorted.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

export type CpuRows = Array<{ name: string; cores: number }>;
