// The open-loop part's figures and verdicts (bench/README.md "pay"): latency at a fixed arrival
// rate, CPU per pay of the system's own processes, and rows written per pay.
import { type cpuBetween, DATABASE_BACKENDS, POSTGRES_CLUSTER } from '../shared/cpu';
import type { RowWritesPerUnit } from './row-writes';
import type { SkeletonLevelName } from './skeleton/levels';

export const OPEN_LOOP_GOALS = { p99BelowMs: 50, cpuMsPerPayAtMost: 4.5, rowsPerPayAtMost: 6 };

// What a pay costs the system, as the goals count it: the gateway, decoder and payout, and the
// infrastructure they use. fx and webhook (off a pay's path, or after it), the partner simulator
// (the partner) and the bench (the client) are shown, not counted; nor are kernel interrupts, which
// no process is charged with. PostgreSQL always counts, as the run's own database's backends when
// that row is there (the cluster is shared with other test runs).
export const SYSTEM_COUNTED: readonly RegExp[] = [/^gateway-/, /^decoder-/, /^payout-/, /^Redis/, /^Kafka/];
// The same for the pay skeleton (bench/README.md "pay": the floors): its front, decoder and store
// stand for gateway, decoder and payout; its partner and consumer are shown, not counted.
export const FLOOR_COUNTED: readonly RegExp[] = [
  /^skeleton-front$/,
  /^skeleton-decoder$/,
  /^skeleton-store$/,
  /^Redis/,
  /^Kafka/,
];

export interface CpuPerPay {
  /**
   * Per process: cores used under load, ms per pay, and `idleMsPerPay`, the cores it used with
   * no load at all (just before the warm-up) spread over the same pays per second: the fixed
   * part of its cost at this rate.
   */
  rows: Array<{ name: string; cores: number; msPerPay: number; idleMsPerPay: number; counted: boolean }>;
  /** CPU ms per pay summed over the counted rows, and the idle part of it. */
  countedMsPerPay: number;
  countedIdleMsPerPay: number;
}

export function cpuPerPay(
  rows: ReturnType<typeof cpuBetween>,
  idle: ReturnType<typeof cpuBetween>,
  paysPerSec: number,
  counted: readonly RegExp[] = SYSTEM_COUNTED,
): CpuPerPay {
  const postgres = rows.some((r) => r.name === DATABASE_BACKENDS) ? DATABASE_BACKENDS : POSTGRES_CLUSTER;
  const out = rows.map((row) => ({
    name: row.name,
    cores: row.cores,
    msPerPay: (row.cores * 1000) / paysPerSec,
    idleMsPerPay: ((idle.find((r) => r.name === row.name)?.cores ?? 0) * 1000) / paysPerSec,
    counted: row.name === postgres || counted.some((re) => re.test(row.name)),
  }));
  const countedRows = out.filter((r) => r.counted);
  return {
    rows: out,
    countedMsPerPay: countedRows.reduce((n, r) => n + r.msPerPay, 0),
    countedIdleMsPerPay: countedRows.reduce((n, r) => n + r.idleMsPerPay, 0),
  };
}

export interface OpenLoopSummary {
  ratePerSec: number;
  seconds: number;
  warmupSeconds: number;
  maxInFlight: number;
  pays: {
    sent: number;
    /** Sent over the measured window (first due time → last answer). */
    perSec: number;
    byHttpStatus: Record<string, number>;
    byTransactionStatus: Record<string, number>;
    errors: number;
    unexpected: number;
    /** Every answer's latency from its due time. */
    p50Ms: number;
    p90Ms: number;
    p99Ms: number;
    maxMs: number;
    capHits: number;
    maxInFlightSeen: number;
    maxSendLagMs: number;
  };
  cpu: CpuPerPay;
  /** Over the warm-up and the measured window, per transaction made. */
  writes: RowWritesPerUnit;
  commitsPerPay: number;
  /**
   * The pay skeleton's open loop at each level in the same run, transport then contract, before
   * the system started (BENCH_PAY_FLOOR=0: none).
   */
  floors?: PayFloor[];
  goals: typeof OPEN_LOOP_GOALS;
  pass: { p99: boolean; clean: boolean; cpu: boolean; rows: boolean; all: boolean };
}

/** The same open loop through the pay skeleton: the least a pay costs in this architecture. */
export interface PayFloor {
  level: SkeletonLevelName;
  cpu: CpuPerPay;
  sent: number;
  perSec: number;
  /** Answered 200 with a completed transaction. */
  completed: number;
  errors: number;
  unexpected: number;
  p50Ms: number;
  p99Ms: number;
}

export function judgeOpenLoop(summary: Omit<OpenLoopSummary, 'goals' | 'pass'>): OpenLoopSummary {
  const { pays } = summary;
  const pass = {
    p99: pays.p99Ms < OPEN_LOOP_GOALS.p99BelowMs,
    // Every pay answered and taken, and the schedule kept: a capped or lagging generator would
    // understate the load.
    clean: pays.errors === 0 && pays.unexpected === 0 && pays.capHits === 0,
    cpu: summary.cpu.countedMsPerPay <= OPEN_LOOP_GOALS.cpuMsPerPayAtMost,
    rows: summary.writes.total <= OPEN_LOOP_GOALS.rowsPerPayAtMost,
    all: false,
  };
  pass.all = pass.p99 && pass.clean && pass.cpu && pass.rows;
  return { ...summary, goals: OPEN_LOOP_GOALS, pass };
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value >= 100 ? 0 : 1) : 'n/a');
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

function cpuTable(cpu: CpuPerPay): string[] {
  return [
    `    ${'process'.padEnd(40)}${'cores'.padStart(7)}${'ms per pay'.padStart(12)}${'of it idle'.padStart(12)}`,
    ...cpu.rows.map(
      (r) =>
        `  ${r.counted ? '* ' : '  '}${r.name.padEnd(40)}${r.cores.toFixed(3).padStart(7)}` +
        `${r.msPerPay.toFixed(3).padStart(12)}${r.idleMsPerPay.toFixed(3).padStart(12)}`,
    ),
    `    ${'counted sum'.padEnd(40)}${''.padStart(7)}${cpu.countedMsPerPay.toFixed(3).padStart(12)}` +
      `${cpu.countedIdleMsPerPay.toFixed(3).padStart(12)}`,
  ];
}

// Each floor's table, then the system against them and the goal, judged against the contract floor
// (what the architecture and the features require): a goal it alone misses is out of this
// architecture's reach on this machine (bench/README.md "pay": the floors).
function floorLines(floors: PayFloor[], system: CpuPerPay, goalMs: number): string[] {
  const x = system.countedMsPerPay;
  const tables = floors.flatMap((floor) => [
    `  floor (${floor.level}): the pay skeleton, same open loop earlier in this run: sent ${floor.sent} ` +
      `(${floor.perSec.toFixed(1)}/s), completed ${floor.completed}, no answer ${floor.errors}, ` +
      `unexpected ${floor.unexpected}, p50 ${ms(floor.p50Ms)} ms, p99 ${ms(floor.p99Ms)} ms`,
    ...cpuTable(floor.cpu),
    '',
  ]);
  const judged = floors.find((floor) => floor.level === 'contract') ?? floors[0]!;
  const listed = [judged, ...floors.filter((floor) => floor !== judged)];
  const y = judged.cpu.countedMsPerPay;
  return [
    ...tables,
    `  CPU per pay: system ${x.toFixed(2)}, ` +
      listed.map((f) => `floor (${f.level}) ${f.cpu.countedMsPerPay.toFixed(2)}`).join(', ') +
      `, goal ${goalMs} (ms; system ÷ ${judged.level} floor ${(x / y).toFixed(2)})`,
    y > goalMs
      ? `  unreachable: the ${judged.level} floor alone is above the goal`
      : `  the floor is under the goal: the gap is ours (system − goal = ${(x - goalMs).toFixed(2)} ms, ` +
        `system − ${judged.level} floor = ${(x - y).toFixed(2)} ms)`,
    '',
  ];
}

export function formatOpenLoop(s: OpenLoopSummary): string {
  const { pays, cpu, writes } = s;
  const lines = [
    `open loop: ${s.ratePerSec} pays/s scheduled, ${s.warmupSeconds} s warm-up + ${s.seconds} s measured, ` +
      `at most ${s.maxInFlight} in flight; latency from each pay's due time`,
    `  sent ${pays.sent} (${pays.perSec.toFixed(1)}/s), answers http ${JSON.stringify(pays.byHttpStatus)}, ` +
      `transactions ${JSON.stringify(pays.byTransactionStatus)}, no answer ${pays.errors}, unexpected ${pays.unexpected}`,
    `  in flight at most ${pays.maxInFlightSeen}, cap hits ${pays.capHits}, max send lag ${ms(pays.maxSendLagMs)} ms`,
    `  pay latency ms: p50 ${ms(pays.p50Ms)}  p90 ${ms(pays.p90Ms)}  p99 ${ms(pays.p99Ms)}  max ${ms(pays.maxMs)}`,
    '',
    '  CPU per pay over the measured window (* counted in the goal; idle = the same process with no',
    '  load, spread over this rate: the fixed part):',
    ...cpuTable(cpu),
    '',
    ...(s.floors?.length ? floorLines(s.floors, cpu, s.goals.cpuMsPerPayAtMost) : []),
    '  rows written per pay (pg_stat_user_tables, every schema of the database):',
    `    ${'table'.padEnd(36)}${'ins'.padStart(7)}${'upd'.padStart(7)}${'del'.padStart(7)}`,
    ...writes.tables.map(
      (t) =>
        `    ${`${t.schema}.${t.table}`.padEnd(36)}${t.ins.toFixed(2).padStart(7)}${t.upd.toFixed(2).padStart(7)}${t.del.toFixed(2).padStart(7)}`,
    ),
    `    ${'total'.padEnd(36)}${writes.total.toFixed(2).padStart(21)}`,
    `  database transactions committed per pay (reads included): ${s.commitsPerPay.toFixed(1)}`,
    '',
    `  pay p99 < ${s.goals.p99BelowMs} ms: ${verdict(s.pass.p99)}`,
    `  CPU per pay (counted) ≤ ${s.goals.cpuMsPerPayAtMost} ms: ${verdict(s.pass.cpu)}`,
    `  rows written per pay ≤ ${s.goals.rowsPerPayAtMost}: ${verdict(s.pass.rows)}`,
    `  every pay answered 2xx and taken, no cap hit: ${verdict(s.pass.clean)}`,
    `  open loop overall: ${verdict(s.pass.all)}`,
  ];
  return lines.join('\n');
}
