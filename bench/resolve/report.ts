import type { LoadResult } from '../gateway/load';
import { pooled } from '../gateway/report';
import { writeBenchResults } from '../shared/results';

/**
 * skeleton: the same-run baseline, the least a resolve costs in this stack (./skeleton);
 * schemes: authenticated GET /v1/schemes, the gateway alone (no service call).
 */
export const TARGETS = ['skeleton', 'schemes', 'resolve', 'resolve-fx'] as const;
export type ResolveTarget = (typeof TARGETS)[number];

export const GOALS = { resolveP99BelowMs: 15 };

export interface Figures {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  autocannonP99Ms: number;
  errors: number;
  non2xx: number;
}

export interface ResolveSummary {
  rows: Array<Figures & { target: ResolveTarget; round: number }>;
  totals: Record<ResolveTarget, Figures>;
  /** Throughput of each resolve variant over the skeleton's, and its p99 over the skeleton's. */
  ratios: Record<'resolve' | 'resolve-fx', { throughput: number; p99: number }>;
  /**
   * Little's law for a closed loop: with every answer under the p99 goal, `connections` callers
   * complete at least connections / goal requests per second. The p99 goal needs about that much.
   */
  requiredReqPerSec: number;
  goals: typeof GOALS;
  pass: { resolveP99: boolean; resolveFxP99: boolean; clean: boolean; all: boolean };
}

/** Every run of a target pooled, as the gateway bench pools its rounds. */
export function figuresOf(runs: LoadResult[]): Figures {
  return pooled(runs);
}

export function summarize(
  rows: ResolveSummary['rows'],
  runs: Record<ResolveTarget, LoadResult[]>,
  connections: number,
): ResolveSummary {
  const totals = {
    skeleton: figuresOf(runs.skeleton),
    schemes: figuresOf(runs.schemes),
    resolve: figuresOf(runs.resolve),
    'resolve-fx': figuresOf(runs['resolve-fx']),
  };
  const pass = {
    resolveP99: totals.resolve.p99Ms < GOALS.resolveP99BelowMs,
    resolveFxP99: totals['resolve-fx'].p99Ms < GOALS.resolveP99BelowMs,
    // Refused or failed requests would make the figures meaningless.
    clean: TARGETS.every((t) => totals[t].errors + totals[t].non2xx === 0),
    all: false,
  };
  pass.all = pass.resolveP99 && pass.resolveFxP99 && pass.clean;
  return {
    rows,
    totals,
    ratios: {
      resolve: againstSkeleton(totals.resolve, totals.skeleton),
      'resolve-fx': againstSkeleton(totals['resolve-fx'], totals.skeleton),
    },
    requiredReqPerSec: connections / (GOALS.resolveP99BelowMs / 1000),
    goals: GOALS,
    pass,
  };
}

function againstSkeleton(target: Figures, skeleton: Figures): { throughput: number; p99: number } {
  return { throughput: target.reqPerSec / skeleton.reqPerSec, p99: target.p99Ms / skeleton.p99Ms };
}

const cell = (value: string | number, width: number) =>
  (typeof value === 'number' ? value.toFixed(value >= 100 ? 0 : 2) : value).padStart(width);

export function formatTable(summary: ResolveSummary): string {
  const header = ['target', 'round', 'req/s', 'p50 ms', 'p99 ms', 'p99 ms (autocannon)', 'errors', 'non-2xx'];
  const widths = header.map((h) => Math.max(h.length, 10));
  const line = (values: Array<string | number>) => values.map((v, i) => cell(v, widths[i]!)).join('  ');
  const values = (target: string, round: string, f: Figures) => [
    target,
    round,
    f.reqPerSec,
    f.p50Ms,
    f.p99Ms,
    f.autocannonP99Ms,
    f.errors,
    f.non2xx,
  ];
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const { totals, ratios, pass } = summary;
  return [
    line(header),
    ...summary.rows.map((r) => line(values(r.target, String(r.round), r))),
    ...TARGETS.map((t) => line(values(t, 'all', totals[t]))),
    '',
    `against the skeleton (same run): resolve ${ratios.resolve.throughput.toFixed(2)}× its req/s and ${ratios.resolve.p99.toFixed(2)}× its p99; ` +
      `resolve-fx ${ratios['resolve-fx'].throughput.toFixed(2)}× its req/s and ${ratios['resolve-fx'].p99.toFixed(2)}× its p99`,
    `Little's law: a p99 under ${GOALS.resolveP99BelowMs} ms at this concurrency needs about ${summary.requiredReqPerSec.toFixed(0)} req/s or more; ` +
      `the skeleton does ${totals.skeleton.reqPerSec.toFixed(0)} req/s with p99 ${totals.skeleton.p99Ms.toFixed(2)} ms`,
    `resolve p99: ${totals.resolve.p99Ms.toFixed(2)} ms (goal < ${GOALS.resolveP99BelowMs} ms) ${verdict(pass.resolveP99)}`,
    `resolve-fx p99: ${totals['resolve-fx'].p99Ms.toFixed(2)} ms (goal < ${GOALS.resolveP99BelowMs} ms) ${verdict(pass.resolveFxP99)}`,
    `no errors and no non-2xx: ${verdict(pass.clean)}`,
    `overall: ${verdict(pass.all)}`,
  ].join('\n');
}

/** Results as JSON under .data/bench/ (ignored by git), so runs can be compared later. */
export function writeResults(
  repoRoot: string,
  settings: Record<string, unknown>,
  summary: ResolveSummary,
): string {
  return writeBenchResults(repoRoot, 'resolve', settings, summary);
}
