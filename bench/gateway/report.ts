import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LoadResult, percentile } from './load';

export type Target = 'bare' | 'gateway';

export interface Row {
  target: Target;
  round: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  autocannonP99Ms: number;
  errors: number;
  non2xx: number;
}

export interface Summary {
  rows: Row[];
  totals: Record<Target, Omit<Row, 'round' | 'target'>>;
  ratio: number;
  goals: { ratioAtLeast: number; gatewayP99BelowMs: number };
  pass: { ratio: boolean; p99: boolean; clean: boolean; all: boolean };
  /** Slowest bare round over the fastest: the bare server does the same work every round, so a
   * large spread means something else took the CPU during the run. */
  bareSpread: number;
}

export const GOALS = { ratioAtLeast: 0.5, gatewayP99BelowMs: 10 };
/** Bare rounds further apart than this: the figures are not trustworthy (printed, not failed). */
export const MAX_TRUSTED_BARE_SPREAD = 1.25;

export function rowOf(target: Target, round: number, run: LoadResult): Row {
  return {
    target,
    round,
    reqPerSec: run.responses / run.durationSeconds,
    p50Ms: percentile(run.latenciesMs, 0.5),
    p99Ms: percentile(run.latenciesMs, 0.99),
    autocannonP99Ms: run.autocannonP99Ms,
    errors: run.errors,
    non2xx: run.non2xx,
  };
}

/** Every round of a target pooled: requests over total time, percentiles over all samples. */
export function pooled(runs: LoadResult[]): Omit<Row, 'round' | 'target'> {
  const total = runs.reduce((n, run) => n + run.latenciesMs.length, 0);
  const all = new Float64Array(total);
  let offset = 0;
  for (const run of runs) {
    all.set(run.latenciesMs, offset);
    offset += run.latenciesMs.length;
  }
  const seconds = runs.reduce((s, run) => s + run.durationSeconds, 0);
  return {
    reqPerSec: runs.reduce((n, run) => n + run.responses, 0) / seconds,
    p50Ms: percentile(all, 0.5),
    p99Ms: percentile(all, 0.99),
    autocannonP99Ms: Math.max(...runs.map((run) => run.autocannonP99Ms)),
    errors: runs.reduce((n, run) => n + run.errors, 0),
    non2xx: runs.reduce((n, run) => n + run.non2xx, 0),
  };
}

export function summarize(rows: Row[], runs: Record<Target, LoadResult[]>): Summary {
  const totals = { bare: pooled(runs.bare), gateway: pooled(runs.gateway) };
  const ratio = totals.gateway.reqPerSec / totals.bare.reqPerSec;
  const pass = {
    ratio: ratio >= GOALS.ratioAtLeast,
    p99: totals.gateway.p99Ms < GOALS.gatewayP99BelowMs,
    // Refused or failed requests would make the figures meaningless.
    clean: totals.gateway.errors + totals.gateway.non2xx + totals.bare.errors + totals.bare.non2xx === 0,
    all: false,
  };
  pass.all = pass.ratio && pass.p99 && pass.clean;
  const bare = rows.filter((r) => r.target === 'bare').map((r) => r.reqPerSec);
  const bareSpread = bare.length > 1 ? Math.max(...bare) / Math.min(...bare) : 1;
  return { rows, totals, ratio, goals: GOALS, pass, bareSpread };
}

const cell = (value: string | number, width: number) =>
  (typeof value === 'number' ? value.toFixed(value >= 100 ? 0 : 2) : value).padStart(width);

/** The table, under `context` lines saying what was measured and how. */
export function formatTable(summary: Summary, context: string[] = []): string {
  const header = ['target', 'round', 'req/s', 'p50 ms', 'p99 ms', 'p99 ms (autocannon)', 'errors', 'non-2xx'];
  const widths = header.map((h) => Math.max(h.length, 10));
  const line = (values: Array<string | number>) => values.map((v, i) => cell(v, widths[i]!)).join('  ');
  const rowValues = (target: string, round: string, r: Omit<Row, 'round' | 'target'>) => [
    target,
    round,
    r.reqPerSec,
    r.p50Ms,
    r.p99Ms,
    r.autocannonP99Ms,
    r.errors,
    r.non2xx,
  ];
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  return [
    ...context,
    '',
    line(header),
    ...summary.rows.map((r) => line(rowValues(r.target, String(r.round), r))),
    line(rowValues('bare', 'all', summary.totals.bare)),
    line(rowValues('gateway', 'all', summary.totals.gateway)),
    '',
    `throughput ratio gateway/bare: ${summary.ratio.toFixed(3)} (goal >= ${GOALS.ratioAtLeast}) ${verdict(summary.pass.ratio)}`,
    `gateway p99: ${summary.totals.gateway.p99Ms.toFixed(2)} ms (goal < ${GOALS.gatewayP99BelowMs} ms) ${verdict(summary.pass.p99)}`,
    `no errors and no non-2xx: ${verdict(summary.pass.clean)}`,
    `overall: ${verdict(summary.pass.all)}`,
    ...(summary.bareSpread > MAX_TRUSTED_BARE_SPREAD
      ? [
          `WARNING: bare throughput varied x${summary.bareSpread.toFixed(2)} between rounds: something else used the CPU; these figures are not trustworthy, run again on a quiet machine`,
        ]
      : []),
  ].join('\n');
}

/** Results as JSON under .data/bench/ (ignored by git), so runs can be compared later. */
export function writeResults(repoRoot: string, settings: Record<string, unknown>, summary: Summary): string {
  const dir = path.join(repoRoot, '.data', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `gateway-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '' };
  writeFileSync(file, `${JSON.stringify({ bench: 'gateway', machine, settings, ...summary }, null, 2)}\n`);
  return file;
}
