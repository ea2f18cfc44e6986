// Tables, verdicts and the JSON record of the webhooks bench (bench/README.md "webhooks").
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RowWritesPerUnit } from '../pay/row-writes';

export const GOALS = { throughputRatioAtLeast: 0.5, commitToReceiverP99BelowMs: 250 };

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
  ratio: number;
  cpu: { baseline: CpuRows; system: CpuRows };
  pass: { throughput: boolean; clean: boolean; all: boolean };
}

export function judgeDelivery(summary: Omit<DeliverySummary, 'ratio' | 'pass'>): DeliverySummary {
  const ratio = summary.system.perSec / summary.baseline.perSec;
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
  return { ...summary, ratio, pass };
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
  return [
    ...table(
      ['target', 'deliveries', 'seconds', 'deliv/s', 'p50 ms', 'p99 ms', 'max ms', 'problems'],
      [
        row(`baseline: sign + POST, c=${s.concurrency}, no DB`, s.baseline),
        row('system: Kafka → webhook → receiver', sys),
      ],
      40,
    ),
    '',
    'latency: baseline = POST → answer of each request; system = Kafka publish (batch sent) → receiver',
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
    `PostgreSQL per delivery: ${num(sys.commitsPerDelivery)} committed transactions (≈ round trips), ` +
      `row writes ${sys.writes.tables.map((t) => `${t.table} ${num(t.ins)}/${num(t.upd)}/${num(t.del)}`).join(', ')} (ins/upd/del)`,
    `ratio system ÷ baseline deliveries/s: ${num(s.ratio, 3)}`,
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
    /** Pay answer latency of the measured pays (any answer). */
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
  const dir = path.join(repoRoot, '.data', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `webhooks-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '' };
  writeFileSync(file, `${JSON.stringify({ bench: 'webhooks', machine, settings, ...results }, null, 2)}\n`);
  return file;
}
