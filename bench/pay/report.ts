import type { PgbenchResult } from './pgbench';
import type { RowWritesPerUnit } from './row-writes';

export const GOALS = { paysPerSecAtLeast: 500, payP99BelowMs: 100 };

export interface PaySummary {
  pays: {
    perSec: number;
    completed: number;
    p50Ms: number;
    p99Ms: number;
    byHttpStatus: Record<string, number>;
    byTransactionStatus: Record<string, number>;
    errors: number;
  };
  /** Event arrival at our consumer minus the event's occurred_at / the transaction's updated_at. */
  kafka: {
    events: number;
    fromOccurredAt: { p50Ms: number; p99Ms: number };
    fromUpdatedAt: { p50Ms: number; p99Ms: number };
    /** Terminal transactions of the run's tenant without an event, and events beyond one per transaction. */
    missing: number;
    duplicates: number;
  };
  baseline: PgbenchResult;
  writes: { pay: RowWritesPerUnit; baseline: RowWritesPerUnit };
  /** Committed database transactions per payment (pg_stat_database.xact_commit), reads included. */
  commitsPerPayment: { pay: number; baseline: number };
  /**
   * PostgreSQL's CPU ms per payment (all its backends, `shared/cpu.ts`) over the closed loop's
   * measured window and over the baseline's: the least the database needs for a payment's writes.
   */
  postgresCpuMsPerPayment: { pay: number; baseline: number };
  /** Pays per second over the baseline's payments (scripts) per second. */
  ratio: number;
  /**
   * Little's law for a closed loop: with every answer under the p99 goal, `concurrency` callers
   * complete at least concurrency / goal pays per second. The p99 goal needs about that much.
   */
  requiredPerSecForP99: number;
  goals: typeof GOALS;
  pass: { throughput: boolean; p99: boolean; clean: boolean; events: boolean; all: boolean };
}

export function judge(
  summary: Omit<PaySummary, 'pass' | 'goals' | 'requiredPerSecForP99'>,
  concurrency: number,
): PaySummary {
  const { pays, kafka } = summary;
  const answered = Object.values(pays.byHttpStatus).reduce((n, c) => n + c, 0);
  const pass = {
    throughput: pays.perSec >= GOALS.paysPerSecAtLeast,
    p99: pays.p99Ms < GOALS.payP99BelowMs,
    // Every pay answered 200 with a completed transaction: anything else would flatter the figures.
    clean: pays.errors === 0 && pays.completed === answered,
    events: kafka.missing === 0 && kafka.duplicates === 0,
    all: false,
  };
  pass.all = pass.throughput && pass.p99 && pass.clean && pass.events;
  const requiredPerSecForP99 = concurrency / (GOALS.payP99BelowMs / 1000);
  return { ...summary, requiredPerSecForP99, goals: GOALS, pass };
}

const num = (value: number) => (Number.isFinite(value) ? value.toFixed(value >= 100 ? 0 : 2) : 'n/a');
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

function writesTable(pay: RowWritesPerUnit, baseline: RowWritesPerUnit): string[] {
  const names = [...new Set([...pay.tables, ...baseline.tables].map((t) => t.table))].sort();
  const lines = [
    `${'table'.padEnd(24)}${'pay ins/upd/del'.padStart(22)}${'baseline ins/upd/del'.padStart(26)}`,
  ];
  const fmt = (t?: { ins: number; upd: number; del: number }) =>
    t ? `${t.ins.toFixed(2)}/${t.upd.toFixed(2)}/${t.del.toFixed(2)}` : '-';
  for (const name of names) {
    const p = pay.tables.find((t) => t.table === name);
    const b = baseline.tables.find((t) => t.table === name);
    // Template tables are read, never written, by the baseline; tiny counts are setup noise.
    if ((p?.ins ?? 0) + (p?.upd ?? 0) + (p?.del ?? 0) < 0.01 && !b) continue;
    lines.push(`${name.padEnd(24)}${fmt(p).padStart(22)}${fmt(b).padStart(26)}`);
  }
  lines.push(
    `${'rows written per payment'.padEnd(24)}${pay.total.toFixed(2).padStart(22)}${baseline.total.toFixed(2).padStart(26)}`,
  );
  return lines;
}

export function formatReport(s: PaySummary): string {
  const { pays, kafka, baseline } = s;
  return [
    `${'measure'.padEnd(44)}${'value'.padStart(12)}`,
    `${'POST /v1/pay completed per second'.padEnd(44)}${num(pays.perSec).padStart(12)}`,
    `${'pay p50 ms'.padEnd(44)}${num(pays.p50Ms).padStart(12)}`,
    `${'pay p99 ms'.padEnd(44)}${num(pays.p99Ms).padStart(12)}`,
    `${'commit → Kafka p50 ms (from occurred_at)'.padEnd(44)}${num(kafka.fromOccurredAt.p50Ms).padStart(12)}`,
    `${'commit → Kafka p99 ms (from occurred_at)'.padEnd(44)}${num(kafka.fromOccurredAt.p99Ms).padStart(12)}`,
    `${'commit → Kafka p50 ms (from updated_at)'.padEnd(44)}${num(kafka.fromUpdatedAt.p50Ms).padStart(12)}`,
    `${'commit → Kafka p99 ms (from updated_at)'.padEnd(44)}${num(kafka.fromUpdatedAt.p99Ms).padStart(12)}`,
    `${'baseline: pgbench payments per second'.padEnd(44)}${num(baseline.scriptsPerSec).padStart(12)}`,
    `${'baseline p50 ms'.padEnd(44)}${num(baseline.p50Ms).padStart(12)}`,
    `${'baseline p99 ms'.padEnd(44)}${num(baseline.p99Ms).padStart(12)}`,
    '',
    `answers: http ${JSON.stringify(pays.byHttpStatus)}, transactions ${JSON.stringify(pays.byTransactionStatus)}, no answer ${pays.errors}`,
    `events read back: ${kafka.events}; terminal transactions without an event: ${kafka.missing}; duplicates: ${kafka.duplicates}`,
    `baseline scripts: ${baseline.scripts}, failed: ${baseline.failed}`,
    '',
    'row writes per payment, measured (pg_stat_user_tables):',
    ...writesTable(s.writes.pay, s.writes.baseline),
    `database transactions committed per payment (reads included): pay ${s.commitsPerPayment.pay.toFixed(1)}, baseline ${s.commitsPerPayment.baseline.toFixed(1)}`,
    `PostgreSQL CPU ms per payment (all backends): pay ${s.postgresCpuMsPerPayment.pay.toFixed(2)}, baseline ${s.postgresCpuMsPerPayment.baseline.toFixed(2)}`,
    '',
    `ratio pays/s ÷ baseline payments/s: ${s.ratio.toFixed(3)}`,
    `Little's law: a p99 under ${GOALS.payP99BelowMs} ms at this concurrency needs about ` +
      `${s.requiredPerSecForP99.toFixed(0)} pays/s or more; PostgreSQL alone doing the same writes ` +
      `(the baseline) reaches ${s.baseline.scriptsPerSec.toFixed(0)}/s`,
    `throughput ≥ ${GOALS.paysPerSecAtLeast}/s: ${verdict(s.pass.throughput)}`,
    `pay p99 < ${GOALS.payP99BelowMs} ms: ${verdict(s.pass.p99)}`,
    `every pay answered 200 completed: ${verdict(s.pass.clean)}`,
    `exactly one Kafka event per terminal transaction: ${verdict(s.pass.events)}`,
    `overall: ${verdict(s.pass.all)}`,
  ].join('\n');
}
