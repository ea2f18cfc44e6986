// Tables, verdicts and the JSON record of the webhooks bench (bench/README.md "webhooks").
import os from 'node:os';
import type { RowWritesPerUnit } from '../pay/row-writes';
import { writeBenchResults } from '../shared/results';
import type { CpuRows, Distribution } from './distribution';
import type { FloorSummary } from './floor';

export const GOALS = { throughputRatioAtLeast: 0.5, commitToReceiverP99BelowMs: 250 };

// ---------------------------------------------------------------------------------------------
// Part A: delivery throughput

export interface ThroughputRun {
  /** Deliveries counted in the measured window (the N asked, or fewer on a timeout). */
  deliveries: number;
  seconds: number;
  perSec: number;
  /** Baseline: POST → answer of each request; system: Kafka publish → receiver, per event. */
  latency: Distribution;
  /** Baseline: non-2xx + failed requests; system: events without a delivery when the wait ended. */
  problems: number;
}

/** The system's publish → receiver time split by the delivery rows' timestamps (ms clock). */
export interface DeliveryStages {
  publishToInsert: Distribution;
  insertToAttempt: Distribution;
  attemptToReceiver: Distribution;
  /** Measured events the dispatcher inserted per second (first publish → last insert). */
  insertsPerSec: number;
}

/** The machine's CPU per delivery at the goal's rate against the least the parts spend (same run). */
export interface CpuBudget {
  cores: number;
  goalPerSec: number;
  /** cores × 1000 ÷ goalPerSec. */
  msAtGoal: number;
  /** CPU ms per delivery of what must run beside the service's own work, each at its least. */
  parts: Array<{ name: string; ms: number }>;
  leastMs: number;
  /** cores × 1000 ÷ leastMs: no implementation on this machine delivers more; and ÷ baseline. */
  maxPerSec: number;
  maxRatio: number;
}

export interface DeliverySummary {
  events: number;
  warmupEvents: number;
  concurrency: number;
  partitions: number;
  baseline: ThroughputRun;
  system: ThroughputRun & {
    complete: boolean;
    duplicates: number;
    /** Signatures checked at the receiver (one in BENCH_WEBHOOKS_VERIFY_EVERY) and the bad ones. */
    checked: number;
    badSignatures: number;
    /** PostgreSQL: committed transactions (≈ statements) and row writes per delivery, warm-up included. */
    commitsPerDelivery: number;
    writes: RowWritesPerUnit;
    /** How long the last event took from publish to Kafka ack (the producer's side of the window). */
    publishSeconds: number;
    stages: DeliveryStages;
  };
  /** PostgreSQL alone doing the system's statements (./floor.ts), its CPU rows in `floor.cpu`. */
  floor: FloorSummary;
  ratio: number;
  /** System ÷ floor deliveries/s, and the goal (baseline × 0.5) ÷ floor. */
  ratioToFloor: number;
  goalToFloor: number;
  budget: CpuBudget;
  cpu: { baseline: CpuRows; system: CpuRows };
  pass: { throughput: boolean; clean: boolean; all: boolean };
}

/** CPU ms per unit of the row of `rows` named like `name` (undefined when absent). */
function msPer(rows: CpuRows, name: RegExp, perSec: number): number | undefined {
  const row = rows.find((r) => name.test(r.name));
  return row && (row.cores * 1000) / perSec;
}

/**
 * What the goal's rate leaves per delivery on this machine, against what must run beside the
 * service's own work on the same cores per delivery, each part measured in this run at its least:
 * the floor's PostgreSQL and pg client, the baseline's sign + POST and receiver, the Kafka broker
 * and the bench's producer (system window). Cores ÷ that sum bounds any implementation here.
 */
function budgetOf(
  summary: Omit<DeliverySummary, 'ratio' | 'ratioToFloor' | 'goalToFloor' | 'budget' | 'pass'>,
): CpuBudget {
  const cores = os.cpus().length;
  const goalPerSec = summary.baseline.perSec * GOALS.throughputRatioAtLeast;
  const parts = [
    { name: 'floor PostgreSQL', ms: msPer(summary.floor.cpu, /^PostgreSQL/, summary.floor.perSec) },
    { name: 'floor pg client', ms: msPer(summary.floor.cpu, /^bench process/, summary.floor.perSec) },
    {
      name: 'sign + POST (baseline sender)',
      ms: msPer(summary.cpu.baseline, /^baseline sender$/, summary.baseline.perSec),
    },
    {
      name: 'receiver (baseline window)',
      ms: msPer(summary.cpu.baseline, /^receiver$/, summary.baseline.perSec),
    },
    { name: 'Kafka broker (system window)', ms: msPer(summary.cpu.system, /^Kafka/, summary.system.perSec) },
    {
      name: 'producer (system window)',
      ms: msPer(summary.cpu.system, /^bench \(load generator\)$/, summary.system.perSec),
    },
  ].map((p) => ({ name: p.name, ms: p.ms ?? Number.NaN }));
  const leastMs = parts.reduce((n, p) => n + (Number.isFinite(p.ms) ? p.ms : 0), 0);
  const maxPerSec = (cores * 1000) / leastMs;
  return {
    cores,
    goalPerSec,
    msAtGoal: (cores * 1000) / goalPerSec,
    parts,
    leastMs,
    maxPerSec,
    maxRatio: maxPerSec / summary.baseline.perSec,
  };
}

export function judgeDelivery(
  summary: Omit<DeliverySummary, 'ratio' | 'ratioToFloor' | 'goalToFloor' | 'budget' | 'pass'>,
): DeliverySummary {
  const ratio = summary.system.perSec / summary.baseline.perSec;
  const ratioToFloor = summary.system.perSec / summary.floor.perSec;
  const goalToFloor = (summary.baseline.perSec * GOALS.throughputRatioAtLeast) / summary.floor.perSec;
  const budget = budgetOf(summary);
  const pass = {
    throughput: ratio >= GOALS.throughputRatioAtLeast,
    clean:
      summary.system.complete &&
      summary.system.duplicates === 0 &&
      summary.system.badSignatures === 0 &&
      summary.system.checked > 0 &&
      summary.baseline.problems === 0,
    all: false,
  };
  pass.all = pass.throughput && pass.clean;
  return { ...summary, ratio, ratioToFloor, goalToFloor, budget, pass };
}

const num = (value: number, digits = 2) =>
  Number.isFinite(value) ? value.toFixed(value >= 100 ? 0 : digits) : 'n/a';
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

function table(header: string[], rows: Array<Array<string | number>>, firstWidth: number): string[] {
  const widths = header.map((h, i) => (i === 0 ? firstWidth : Math.max(h.length, 9)));
  const line = (values: Array<string | number>) =>
    values
      .map((v, i) => {
        const text = typeof v === 'number' ? num(v) : v;
        return i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!);
      })
      .join('  ');
  return [line(header), ...rows.map(line)];
}

const stageCells = (d: Distribution) => [d.count, d.p50Ms, d.p99Ms, d.maxMs];

const writesText = (w: RowWritesPerUnit) =>
  w.tables
    .filter((t) => t.ins + t.upd + t.del >= 0.01)
    .map((t) => `${t.table} ${num(t.ins)}/${num(t.upd)}/${num(t.del)}`)
    .join(', ');

/**
 * CPU ms per delivery of every process, one column per target (each over its own window): which
 * process spent what, beside the floor's PostgreSQL.
 */
export function formatCpuComparison(s: DeliverySummary): string {
  const targets: Array<[string, CpuRows, number]> = [
    ['baseline', s.cpu.baseline, s.baseline.perSec],
    ['system', s.cpu.system, s.system.perSec],
    ['floor', s.floor.cpu, s.floor.perSec],
  ];
  // The processes of the targets first, then the infrastructure and the machine as cpuBetween lists them.
  const names = ['baseline sender', 'webhook service', 'bench process (the floor statements)', 'receiver'];
  for (const [, rows] of targets) for (const r of rows) if (!names.includes(r.name)) names.push(r.name);
  const cell = (rows: CpuRows, name: string, perSec: number) => {
    const row = rows.find((r) => r.name === name);
    return row ? ((row.cores * 1000) / perSec).toFixed(3) : '';
  };
  return table(
    ['CPU ms per delivery (each target its own window)', ...targets.map(([t]) => t)],
    names.map((name) => [name, ...targets.map(([, rows, perSec]) => cell(rows, name, perSec))]),
    48,
  ).join('\n');
}

export function formatDelivery(s: DeliverySummary): string {
  const row = (name: string, r: ThroughputRun) => [
    name,
    r.deliveries,
    r.seconds,
    r.perSec,
    r.latency.p50Ms,
    r.latency.p99Ms,
    r.latency.maxMs,
    r.problems,
  ];
  const sys = s.system;
  const floor = s.floor;
  return [
    ...table(
      ['target', 'deliveries', 'seconds', 'deliv/s', 'p50 ms', 'p99 ms', 'max ms', 'problems'],
      [
        row(`baseline: sign + POST, c=${s.concurrency}, no DB`, s.baseline),
        row('system: Kafka → webhook → receiver', sys),
        row('PostgreSQL floor: statements only', floor),
      ],
      40,
    ),
    '',
    'latency: baseline = POST → answer of each request; system = Kafka publish (batch sent) → receiver; ' +
      'floor = insert sent → success recorded (the inserter runs ahead)',
    `system: ${s.events} events published in ${num(sys.publishSeconds)} s (${s.warmupEvents} warm-up before), ` +
      `topic partitions ${s.partitions}; received ${sys.deliveries}${sys.complete ? '' : ' (INCOMPLETE: wait timed out)'}, ` +
      `duplicates ${sys.duplicates}, signatures checked ${sys.checked}, bad ${sys.badSignatures}`,
    ...table(
      ['system stage (delivery row timestamps)', 'samples', 'p50 ms', 'p99 ms', 'max ms'],
      [
        ['publish → dispatcher insert (created_at)', ...stageCells(sys.stages.publishToInsert)],
        ['insert → worker attempt (last_attempt_at)', ...stageCells(sys.stages.insertToAttempt)],
        ['attempt → receiver', ...stageCells(sys.stages.attemptToReceiver)],
      ],
      44,
    ),
    `dispatcher inserted ${num(sys.stages.insertsPerSec)} events/s (first publish → last insert)`,
    `PostgreSQL per delivery: ${num(sys.commitsPerDelivery, 3)} committed transactions (≈ round trips), ` +
      `row writes ${writesText(sys.writes)} (ins/upd/del)`,
    `floor: the service's own statements (store.ts) on a fresh database, no HTTP, no Kafka: one inserter ` +
      `(insertDeliveries, ${floor.insertBatch} rows) and ${floor.loops} claim loops (claimDueDeliveries ≤ ${floor.claimLimit}, ` +
      `successes grouped by the worker's delivered-batch.ts: finishDelivered ≤ 64), pool of ${floor.poolMax}; ` +
      `${floor.statements.inserts} inserts, ${floor.statements.claims} claims (${floor.statements.emptyClaims} empty, ` +
      `${num(floor.statements.rowsPerClaim, 1)} rows each otherwise), ${floor.statements.finishes} finishes ` +
      `(${num(floor.statements.rowsPerFinish, 1)} rows each)`,
    `floor per delivery: ${num(floor.commitsPerDelivery, 3)} committed transactions, row writes ${writesText(floor.writes)}`,
    `ratio system ÷ baseline deliveries/s: ${num(s.ratio, 3)}`,
    `ratio system ÷ floor deliveries/s: ${num(s.ratioToFloor, 3)}; goal (baseline × ${GOALS.throughputRatioAtLeast}) ÷ floor: ` +
      `${num(s.goalToFloor, 3)}${s.goalToFloor > 1 ? ' (the goal is above what PostgreSQL alone reaches)' : ' (the goal is below the floor)'}`,
    `CPU budget at the goal: ${s.budget.cores} cores ÷ ${num(s.budget.goalPerSec)} deliveries/s = ` +
      `${s.budget.msAtGoal.toFixed(3)} ms per delivery; the least spent beside the service's own work: ` +
      `${s.budget.parts.map((p) => `${p.name} ${Number.isFinite(p.ms) ? p.ms.toFixed(3) : 'n/a'}`).join(' + ')} ` +
      `= ${s.budget.leastMs.toFixed(3)} ms (left: ${(s.budget.msAtGoal - s.budget.leastMs).toFixed(3)} ms)`,
    `upper bound on this machine: ${s.budget.cores} cores ÷ ${s.budget.leastMs.toFixed(3)} ms = ${num(s.budget.maxPerSec)} ` +
      `deliveries/s = ${num(s.budget.maxRatio, 3)} × baseline; the system reaches ${num(s.system.perSec / s.budget.maxPerSec, 2)} of it`,
    `throughput ≥ ${GOALS.throughputRatioAtLeast} × baseline: ${verdict(s.pass.throughput)}`,
    `every event delivered once, signatures valid, baseline clean: ${verdict(s.pass.clean)}`,
    `overall: ${verdict(s.pass.all)}`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Part B: commit → receiver latency under an open-loop pay load

export interface LatencySummary {
  ratePerSec: number;
  seconds: number;
  warmupSeconds: number;
  pays: {
    sent: number;
    byHttpStatus: Record<string, number>;
    byTransactionStatus: Record<string, number>;
    errors: number;
    /** Pay answer latency of the measured pays (any answer), from each pay's due time. */
    latency: Distribution;
    /** The most a request left after its scheduled time (the generator kept up when small). */
    maxScheduleLagMs: number;
  };
  /** Per measured transaction: arrival minus the envelope's occurred_at (the terminal commit). */
  kafka: Distribution;
  receiver: Distribution;
  /** Per measured transaction: receiver arrival minus our Kafka consumer's arrival. */
  share: Distribution;
  /** commit → the dispatcher's insert (created_at) → the worker's attempt (last_attempt_at) → receiver. */
  stages: {
    commitToInsert: Distribution;
    insertToAttempt: Distribution;
    attemptToReceiver: Distribution;
    /** Insert to next insert while the next event already waited on Kafka: the dispatcher's time per event. */
    dispatcherCycle: Distribution;
  };
  deliveries: {
    /** Terminal transactions of the run's tenant (all phases), and their deliveries. */
    terminal: number;
    completedAnswers: number;
    received: number;
    missing: number;
    duplicates: number;
    /** Deliveries of transactions not in the tenant's terminal set. */
    unexpected: number;
    checked: number;
    badSignatures: number;
  };
  /** p99 commit → receiver over p99 commit → Kafka. */
  ratioP99: number;
  cpu: CpuRows;
  pass: { p99: boolean; exactlyOnce: boolean; signatures: boolean; all: boolean };
}

export function judgeLatency(summary: Omit<LatencySummary, 'ratioP99' | 'pass'>): LatencySummary {
  const d = summary.deliveries;
  const pass = {
    p99: summary.receiver.p99Ms < GOALS.commitToReceiverP99BelowMs,
    exactlyOnce: d.missing === 0 && d.duplicates === 0 && d.unexpected === 0 && d.received > 0,
    signatures: d.checked > 0 && d.badSignatures === 0,
    all: false,
  };
  pass.all = pass.p99 && pass.exactlyOnce && pass.signatures;
  return { ...summary, ratioP99: summary.receiver.p99Ms / summary.kafka.p99Ms, pass };
}

export function formatLatency(s: LatencySummary): string {
  const row = (name: string, d: Distribution) => [name, d.count, d.p50Ms, d.p99Ms, d.maxMs];
  const { pays, deliveries: d } = s;
  return [
    ...table(
      ['measure (per measured transaction)', 'samples', 'p50 ms', 'p99 ms', 'max ms'],
      [
        row('baseline: commit → Kafka (own consumer)', s.kafka),
        row('commit → receiver (webhook delivered)', s.receiver),
        row('Kafka → receiver (the webhook share)', s.share),
        row('  commit → dispatcher insert (created_at)', s.stages.commitToInsert),
        row('  insert → worker attempt (last_attempt_at)', s.stages.insertToAttempt),
        row('  attempt → receiver', s.stages.attemptToReceiver),
        row('dispatcher time per event, events queued', s.stages.dispatcherCycle),
        row('pay answer (POST /v1/pay)', pays.latency),
      ],
      44,
    ),
    '',
    `load: open loop ${s.ratePerSec} pays/s, ${s.warmupSeconds} s warm-up + ${s.seconds} s measured; ` +
      `sent ${pays.sent}, answers http ${JSON.stringify(pays.byHttpStatus)}, transactions ` +
      `${JSON.stringify(pays.byTransactionStatus)}, no answer ${pays.errors}, max schedule lag ${num(pays.maxScheduleLagMs)} ms`,
    `deliveries: terminal transactions ${d.terminal} (pays answered completed ${d.completedAnswers}), received ${d.received}, ` +
      `missing ${d.missing}, duplicates ${d.duplicates}, unexpected ${d.unexpected}; signatures checked ${d.checked}, bad ${d.badSignatures}`,
    `ratio p99 commit → receiver ÷ p99 commit → Kafka: ${num(s.ratioP99, 2)}`,
    `commit → receiver p99 < ${GOALS.commitToReceiverP99BelowMs} ms: ${verdict(s.pass.p99)}`,
    `exactly one delivery per terminal transaction: ${verdict(s.pass.exactlyOnce)}`,
    `signatures valid: ${verdict(s.pass.signatures)}`,
    `overall: ${verdict(s.pass.all)}`,
  ].join('\n');
}

/** Results as JSON under .data/bench/ (ignored by git), so runs can be compared later. */
export function writeResults(
  repoRoot: string,
  settings: Record<string, unknown>,
  results: Record<string, unknown>,
): string {
  return writeBenchResults(repoRoot, 'webhooks', settings, results);
}
