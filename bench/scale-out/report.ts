// The scale-out bench's figures and verdict (bench/README.md "scale-out"): CPU per pay of
// every process of a system of one replica per component (a) and of one of two replicas per
// component (b) at the same open-loop rate, pooled over alternating rounds, the ratio b ÷ a against
// 1.15, and each system's CPU with no load at all, to tell fixed per-replica costs from per-pay ones.
import { percentile } from '../gateway/load';
import { DATABASE_BACKENDS } from '../shared/cpu';

export const COMPONENTS = ['gateway', 'decoder', 'fx', 'payout', 'webhook'] as const;
export type Component = (typeof COMPONENTS)[number];

/** Two replicas of each component cost at most this much CPU per pay more than one. */
export const SCALE_OUT_GOAL_RATIO = 1.15;

/**
 * a: one replica of each component; b: `BENCH_SCALE_OUT_REPLICAS` of each; a½: system a again at
 * half the rate, the load each of b's two replicas carries (the floor, see RateComparison.floor).
 */
export type SystemKey = 'a' | 'b' | 'a½';

/** A replica's row name: `gateway[0]`, `payout[1]`, … */
export function replicaRowName(component: Component, index: number): string {
  return `${component}[${index}]`;
}

const REPLICA_ROW = /^(gateway|decoder|fx|payout|webhook)\[(\d+)\]$/;

/** The component a row belongs to, when it is a replica's row. */
export function componentOf(row: string): Component | undefined {
  return REPLICA_ROW.exec(row)?.[1] as Component | undefined;
}

/** CPU seconds per process (cpuBetween's row names) over a window of `seconds`. */
export interface CpuWindow {
  seconds: number;
  cpu: Record<string, number>;
}

/** One system with no load for a window. */
export interface IdleWindow {
  system: SystemKey;
  when: 'before' | 'after';
  cpu: CpuWindow;
  /** Committed transactions of the system's database over the window (pg_stat_database). */
  commits: number;
}

/** One measured open-loop window of one system. */
export interface MeasuredRound {
  system: SystemKey;
  rate: number;
  round: number;
  sent: number;
  /** Sent over the window (first due time → last answer). */
  perSec: number;
  byHttpStatus: Record<string, number>;
  byTransactionStatus: Record<string, number>;
  errors: number;
  unexpected: number;
  capHits: number;
  maxSendLagMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /**
   * Over the load and the drain after it (until every pay's relay and webhook work was done,
   * `drainSeconds`; NaN when it was not done within the limit).
   */
  cpu: CpuWindow;
  drainSeconds: number;
  /** Over the same window. */
  commits: number;
}

/** A system's rounds at one rate, pooled: CPU summed over every window, pays summed. */
export interface Pooled {
  system: SystemKey;
  rate: number;
  rounds: number;
  sent: number;
  perSec: number;
  /** Pays per second of CPU window (load + drain): what the idle part is spread over. */
  cpuRate: number;
  errors: number;
  unexpected: number;
  capHits: number;
  /** Over every answer of every round. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU ms per pay, per row. */
  msPerPay: Record<string, number>;
  /** Sum of every replica's row, per component. */
  componentMsPerPay: Record<Component, number>;
  /** Every replica of every component. */
  servicesMsPerPay: number;
  /** The run's own database's backends (0 when the row is missing). */
  databaseMsPerPay: number;
  /** The judged total: services + the run's database. */
  totalMsPerPay: number;
  commitsPerPay: number;
}

/** A system's idle CPU, averaged over its idle windows: ms of CPU per second, per row. */
export interface Idle {
  system: SystemKey;
  seconds: number;
  msPerSec: Record<string, number>;
  componentMsPerSec: Record<Component, number>;
  servicesMsPerSec: number;
  databaseMsPerSec: number;
  totalMsPerSec: number;
  commitsPerSec: number;
}

const sumOf = (values: Iterable<number>) => {
  let n = 0;
  for (const v of values) n += v;
  return n;
};

/** CPU seconds per row summed over windows. */
function summedCpu(windows: readonly CpuWindow[]): Record<string, number> {
  const cpu: Record<string, number> = {};
  for (const window of windows)
    for (const [row, value] of Object.entries(window.cpu)) cpu[row] = (cpu[row] ?? 0) + value;
  return cpu;
}

/** CPU ms per unit (a pay, a second) of every row, from its CPU seconds over `units`. */
function msPer(cpu: Record<string, number>, units: number): Record<string, number> {
  return Object.fromEntries(Object.entries(cpu).map(([row, s]) => [row, (s * 1000) / units]));
}

function splitRows(perRow: Record<string, number>) {
  const components = Object.fromEntries(COMPONENTS.map((c) => [c, 0])) as Record<Component, number>;
  for (const [row, value] of Object.entries(perRow)) {
    const component = componentOf(row);
    if (component) components[component] += value;
  }
  const services = sumOf(Object.values(components));
  const database = perRow[DATABASE_BACKENDS] ?? 0;
  return { components, services, database, total: services + database };
}

/** Pools the rounds of one system at one rate; `latenciesMs` are every answer's, all its rounds. */
export function poolRounds(rounds: readonly MeasuredRound[], latenciesMs: Float64Array): Pooled {
  const first = rounds[0];
  if (!first) throw new Error('no round to pool');
  const sent = sumOf(rounds.map((r) => r.sent));
  const seconds = sumOf(rounds.map((r) => r.sent / r.perSec));
  const msPerPay = msPer(summedCpu(rounds.map((r) => r.cpu)), sent);
  const split = splitRows(msPerPay);
  return {
    system: first.system,
    rate: first.rate,
    rounds: rounds.length,
    sent,
    perSec: sent / seconds,
    cpuRate: sent / sumOf(rounds.map((r) => r.cpu.seconds)),
    errors: sumOf(rounds.map((r) => r.errors)),
    unexpected: sumOf(rounds.map((r) => r.unexpected)),
    capHits: sumOf(rounds.map((r) => r.capHits)),
    p50Ms: percentile(latenciesMs, 0.5),
    p99Ms: percentile(latenciesMs, 0.99),
    maxMs: percentile(latenciesMs, 1),
    msPerPay,
    componentMsPerPay: split.components,
    servicesMsPerPay: split.services,
    databaseMsPerPay: split.database,
    totalMsPerPay: split.total,
    commitsPerPay: sumOf(rounds.map((r) => r.commits)) / sent,
  };
}

/** A system's idle windows averaged (CPU seconds and commits summed over their seconds summed). */
export function idleOf(system: SystemKey, windows: readonly IdleWindow[]): Idle | undefined {
  const own = windows.filter((w) => w.system === system);
  const seconds = sumOf(own.map((w) => w.cpu.seconds));
  if (own.length === 0 || seconds <= 0) return undefined;
  const msPerSec = msPer(summedCpu(own.map((w) => w.cpu)), seconds);
  const split = splitRows(msPerSec);
  return {
    system,
    seconds,
    msPerSec,
    componentMsPerSec: split.components,
    servicesMsPerSec: split.services,
    databaseMsPerSec: split.database,
    totalMsPerSec: split.total,
    commitsPerSec: sumOf(own.map((w) => w.commits)) / seconds,
  };
}

/**
 * A system's CPU per pay at a rate r, split as idle ÷ r (what it burns with no load, spread over the
 * pays) + per pay (the rest). Measured at one rate, this gives the figure at any other, as long as
 * the per-pay part does not change with the rate.
 */
export interface Split {
  idleMsPerSec: number;
  perPayMs: number;
}

export function splitCost(totalMsPerPay: number, perSec: number, idleMsPerSec: number): Split {
  return { idleMsPerSec, perPayMs: totalMsPerPay - idleMsPerSec / perSec };
}

export function costAt(split: Split, rate: number): number {
  return split.idleMsPerSec / rate + split.perPayMs;
}

/**
 * The rate from which on b ÷ a ≤ goal, from the two splits (the ratio moves monotonically from
 * b.idle ÷ a.idle at a rate near 0 to b.perPay ÷ a.perPay at a very high one): `0` when it holds at
 * any rate, `Infinity` when it fails at high rates (b's per-pay part alone is over goal × a's).
 */
export function breakEvenRate(a: Split, b: Split, goal: number): number {
  // b.idle / r + b.perPay ≤ goal · (a.idle / r + a.perPay)  ⇔  r · (goal·a.perPay − b.perPay) ≥ b.idle − goal·a.idle
  const perPayRoom = goal * a.perPayMs - b.perPayMs;
  const idleExcess = b.idleMsPerSec - goal * a.idleMsPerSec;
  if (perPayRoom < 0) return Number.POSITIVE_INFINITY;
  if (idleExcess <= 0) return 0;
  if (perPayRoom === 0) return Number.POSITIVE_INFINITY;
  return idleExcess / perPayRoom;
}

export interface RateComparison {
  rate: number;
  a: Pooled;
  b: Pooled;
  /** Per round i: b's total ÷ a's total of that round. */
  roundRatios: number[];
  /** Pooled b ÷ a: the judged total (services + run's database), and the services alone. */
  ratio: number;
  servicesRatio: number;
  /** With idle measured: each side's split, the ratio without idle, the break-even rate. */
  split?: { a: Split; b: Split; perPayRatio: number; breakEvenRate: number };
  /**
   * The floor, when a½ was measured: one replica of each component carrying half the rate, as each
   * replica of b does. Its per-pay part over a's is what splitting the load costs a process by
   * itself (fewer pays per batch and per wake-up, colder caches), with no second replica to
   * coordinate with; b's per-pay part over a½'s is what the replicas' coordination adds on top.
   */
  floor?: { half: Pooled; split: Split; perPayRatio: number; bOverFloor: number };
  clean: boolean;
  pass: boolean;
}

function roundTotal(round: MeasuredRound): number {
  return splitRows(msPer(round.cpu.cpu, round.sent)).total;
}

export function compareAtRate(
  rate: number,
  rounds: readonly MeasuredRound[],
  pooled: { a: Pooled; b: Pooled; half?: Pooled },
  idle: { a?: Idle; b?: Idle },
): RateComparison {
  const at = rounds.filter((r) => r.rate === rate);
  const roundRatios: number[] = [];
  for (const roundA of at.filter((r) => r.system === 'a')) {
    const roundB = at.find((r) => r.system === 'b' && r.round === roundA.round);
    if (roundB) roundRatios.push(roundTotal(roundB) / roundTotal(roundA));
  }
  const { a, b } = pooled;
  const ratio = b.totalMsPerPay / a.totalMsPerPay;
  const clean = [a, b].every((p) => p.errors === 0 && p.unexpected === 0 && p.capHits === 0);
  let split: RateComparison['split'];
  let floor: RateComparison['floor'];
  if (idle.a && idle.b) {
    const sa = splitCost(a.totalMsPerPay, a.cpuRate, idle.a.totalMsPerSec);
    const sb = splitCost(b.totalMsPerPay, b.cpuRate, idle.b.totalMsPerSec);
    split = {
      a: sa,
      b: sb,
      perPayRatio: sb.perPayMs / sa.perPayMs,
      breakEvenRate: breakEvenRate(sa, sb, SCALE_OUT_GOAL_RATIO),
    };
    const { half } = pooled;
    if (half) {
      // a½ is system a: its idle is a's, spread over half as many pays per second.
      const sh = splitCost(half.totalMsPerPay, half.cpuRate, idle.a.totalMsPerSec);
      floor = {
        half,
        split: sh,
        perPayRatio: sh.perPayMs / sa.perPayMs,
        bOverFloor: sb.perPayMs / sh.perPayMs,
      };
    }
  }
  return {
    rate,
    a,
    b,
    roundRatios,
    ratio,
    servicesRatio: b.servicesMsPerPay / a.servicesMsPerPay,
    split,
    floor,
    clean,
    pass: clean && ratio <= SCALE_OUT_GOAL_RATIO,
  };
}

// ---- text ----

const num = (value: number | undefined, digits = 3) =>
  value === undefined || !Number.isFinite(value) ? '' : value.toFixed(digits);
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value >= 100 ? 0 : 1) : 'n/a');
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** Replica rows in component and index order, every replica either system has. */
function replicaRows(...perRow: Array<Record<string, number> | undefined>): Map<Component, string[]> {
  const byComponent = new Map<Component, string[]>(COMPONENTS.map((c) => [c, []]));
  const seen = new Set<string>();
  for (const rows of perRow)
    for (const row of Object.keys(rows ?? {})) {
      const component = componentOf(row);
      if (!component || seen.has(row)) continue;
      seen.add(row);
      byComponent.get(component)!.push(row);
    }
  for (const rows of byComponent.values())
    rows.sort((x, y) => Number(REPLICA_ROW.exec(x)![2]) - Number(REPLICA_ROW.exec(y)![2]));
  return byComponent;
}

/** The per-process table of one rate: CPU ms per pay of a and b, and each side's idle ms per second. */
export function formatCpuTable(c: RateComparison, idle: { a?: Idle; b?: Idle }): string[] {
  const { a, b } = c;
  const half = c.floor?.half;
  const head =
    `  ${'process'.padEnd(36)}${'a ms/pay'.padStart(10)}${'b ms/pay'.padStart(10)}${'b − a'.padStart(9)}` +
    `${'a idle ms/s'.padStart(13)}${'b idle ms/s'.padStart(13)}${half ? 'a½ ms/pay'.padStart(11) : ''}`;
  const line = (name: string, va?: number, vb?: number, ia?: number, ib?: number, vh?: number) =>
    `  ${name.padEnd(36)}${num(va).padStart(10)}${num(vb).padStart(10)}` +
    `${(va !== undefined || vb !== undefined ? num((vb ?? 0) - (va ?? 0)) : '').padStart(9)}` +
    `${num(ia, 1).padStart(13)}${num(ib, 1).padStart(13)}${half ? num(vh).padStart(11) : ''}`;
  /** A row of every side's figures, each picked by `of` from that side's pooled or idle record. */
  const row = (
    name: string,
    ofPay: (p: Pooled) => number | undefined,
    ofIdle: (i: Idle) => number | undefined,
  ) =>
    line(name, ofPay(a), ofPay(b), idle.a && ofIdle(idle.a), idle.b && ofIdle(idle.b), half && ofPay(half));
  const lines = [head];
  const byComponent = replicaRows(a.msPerPay, b.msPerPay, idle.a?.msPerSec, idle.b?.msPerSec);
  for (const component of COMPONENTS) {
    for (const name of byComponent.get(component)!)
      lines.push(
        row(
          `  ${name}`,
          (p) => p.msPerPay[name],
          (i) => i.msPerSec[name],
        ),
      );
    lines.push(
      row(
        `${component} (sum)`,
        (p) => p.componentMsPerPay[component],
        (i) => i.componentMsPerSec[component],
      ),
    );
  }
  lines.push(
    row(
      'services (every replica)',
      (p) => p.servicesMsPerPay,
      (i) => i.servicesMsPerSec,
    ),
    row(
      "PostgreSQL (the system's database)",
      (p) => p.databaseMsPerPay,
      (i) => i.databaseMsPerSec,
    ),
    row(
      'total (judged)',
      (p) => p.totalMsPerPay,
      (i) => i.totalMsPerSec,
    ),
    '  shown, not counted (outside the system, or shared by both systems and other runs):',
  );
  const others = [...new Set([...Object.keys(a.msPerPay), ...Object.keys(b.msPerPay)])].filter(
    (name) => !componentOf(name) && name !== DATABASE_BACKENDS,
  );
  for (const name of others)
    lines.push(
      row(
        `  ${name}`,
        (p) => p.msPerPay[name],
        (i) => i.msPerSec[name],
      ),
    );
  lines.push(
    row(
      '  database commits per pay / per s',
      (p) => p.commitsPerPay,
      (i) => i.commitsPerSec,
    ),
  );
  return lines;
}

function roundLine(r: MeasuredRound): string {
  return (
    `  round ${r.round} ${r.system}: sent ${r.sent} (${r.perSec.toFixed(1)}/s), http ${JSON.stringify(r.byHttpStatus)}, ` +
    `transactions ${JSON.stringify(r.byTransactionStatus)}, no answer ${r.errors}, unexpected ${r.unexpected}, ` +
    `cap hits ${r.capHits}, p50 ${ms(r.p50Ms)} p99 ${ms(r.p99Ms)} max ${ms(r.maxMs)} ms, ` +
    `drained in ${Number.isFinite(r.drainSeconds) ? `${r.drainSeconds.toFixed(1)} s` : 'more than the limit'}, ` +
    `total ${roundTotal(r).toFixed(2)} ms/pay`
  );
}

function pooledLine(p: Pooled): string {
  return (
    `  ${p.system} pooled (${p.rounds} rounds): ${p.sent} pays at ${p.perSec.toFixed(1)}/s, ` +
    `p50 ${ms(p.p50Ms)} p99 ${ms(p.p99Ms)} max ${ms(p.maxMs)} ms, no answer ${p.errors}, ` +
    `unexpected ${p.unexpected}, cap hits ${p.capHits}`
  );
}

function breakEvenText(rate: number): string {
  if (rate === 0) return 'at any rate';
  if (!Number.isFinite(rate)) return 'at no rate (the per-pay part alone is over the goal)';
  return `from about ${Math.ceil(rate)} pays/s`;
}

export function formatComparison(
  c: RateComparison,
  rounds: readonly MeasuredRound[],
  idle: { a?: Idle; b?: Idle },
): string {
  const lines = [
    `at ${c.rate} pays/s scheduled (a: 1 replica of each component, b: 2 of each; pays spread over every gateway):`,
    ...rounds.filter((r) => r.rate === c.rate).map(roundLine),
    pooledLine(c.a),
    pooledLine(c.b),
    ...(c.floor ? [pooledLine(c.floor.half)] : []),
    '',
    `  CPU per pay by process, pooled over the rounds (idle: the same process with no load, ms of CPU per second):`,
    ...formatCpuTable(c, idle),
    '',
    `  ratio total CPU per pay b ÷ a: ${c.ratio.toFixed(3)} (rounds ${c.roundRatios.map((r) => r.toFixed(3)).join(', ')}; ` +
      `services alone ${c.servicesRatio.toFixed(3)}), goal ≤ ${SCALE_OUT_GOAL_RATIO}: ${verdict(c.ratio <= SCALE_OUT_GOAL_RATIO)}`,
  ];
  if (c.split) {
    const { a, b } = c.split;
    lines.push(
      `  idle part: a ${a.idleMsPerSec.toFixed(1)} ms/s = ${(a.idleMsPerSec / c.a.cpuRate).toFixed(3)} ms/pay at this rate, ` +
        `b ${b.idleMsPerSec.toFixed(1)} ms/s = ${(b.idleMsPerSec / c.b.cpuRate).toFixed(3)} ms/pay; ` +
        `b's extra idle adds ${((b.idleMsPerSec - a.idleMsPerSec) / c.rate).toFixed(3)} ms per pay`,
      `  per-pay part (total − idle ÷ rate): a ${a.perPayMs.toFixed(3)}, b ${b.perPayMs.toFixed(3)} ms, ratio ${c.split.perPayRatio.toFixed(3)}`,
      `  projected ratio: ${[2, 4]
        .map(
          (k) => `${(k * c.rate).toFixed(0)}/s ${(costAt(b, k * c.rate) / costAt(a, k * c.rate)).toFixed(3)}`,
        )
        .join(', ')}; ratio ≤ ${SCALE_OUT_GOAL_RATIO} ${breakEvenText(c.split.breakEvenRate)}`,
    );
  }
  if (c.floor) {
    const { split, perPayRatio, bOverFloor } = c.floor;
    lines.push(
      `  floor, a at ${(c.rate / 2).toFixed(0)}/s (the load each of b's two replicas carries): per-pay part ` +
        `${split.perPayMs.toFixed(3)} ms = ${perPayRatio.toFixed(3)} × a's, with no second replica at all; ` +
        `b's per-pay part ÷ the floor's = ${bOverFloor.toFixed(3)} (what coordination between replicas adds)`,
    );
  }
  lines.push(
    `  every pay answered 2xx and taken, no cap hit: ${verdict(c.clean)}`,
    `  scale-out at ${c.rate} pays/s: ${verdict(c.pass)}`,
  );
  return lines.join('\n');
}

/** The idle table: ms of CPU per second of every row, a and b, with no load at all. */
export function formatIdle(idle: { a?: Idle; b?: Idle }): string {
  const { a, b } = idle;
  if (!a || !b) return 'idle: not measured';
  const line = (name: string, va?: number, vb?: number) =>
    `  ${name.padEnd(36)}${num(va, 1).padStart(10)}${num(vb, 1).padStart(10)}${num((vb ?? 0) - (va ?? 0), 1).padStart(10)}`;
  const lines = [
    `idle: both systems up with no load, ${a.seconds.toFixed(0)} s each (ms of CPU per second = thousandths of a core)`,
    `  ${'process'.padEnd(36)}${'a'.padStart(10)}${'b'.padStart(10)}${'b − a'.padStart(10)}`,
  ];
  const byComponent = replicaRows(a.msPerSec, b.msPerSec);
  for (const component of COMPONENTS) {
    for (const row of byComponent.get(component)!)
      lines.push(line(`  ${row}`, a.msPerSec[row], b.msPerSec[row]));
    lines.push(line(`${component} (sum)`, a.componentMsPerSec[component], b.componentMsPerSec[component]));
  }
  lines.push(
    line('services (every replica)', a.servicesMsPerSec, b.servicesMsPerSec),
    line("PostgreSQL (the system's database)", a.databaseMsPerSec, b.databaseMsPerSec),
    line('total', a.totalMsPerSec, b.totalMsPerSec),
    line('database commits per second', a.commitsPerSec, b.commitsPerSec),
  );
  return lines.join('\n');
}
