// Where the CPU went during the measured window: each process of the system (utime + stime from
// /proc/<pid>/stat), the bench process itself, and the machine in all (/proc/stat), the rest being
// PostgreSQL, Redis, Kafka and anything else running. Linux only; elsewhere the table is empty.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function processCpuSeconds(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Busy seconds of the whole machine, and the part spent in interrupts (irq + softirq) and steal. */
function machineSeconds(): { busy: number; interrupts: number; steal: number } | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
    const busy = cpu.slice(0, 8).reduce((n, v, i) => (i === 3 || i === 4 ? n : n + v), 0);
    return {
      busy: busy / TICKS_PER_SECOND,
      interrupts: ((cpu[5] ?? 0) + (cpu[6] ?? 0)) / TICKS_PER_SECOND,
      steal: (cpu[7] ?? 0) / TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

// The infrastructure's processes, told apart by their command name (/proc/<pid>/comm).
const INFRASTRUCTURE: Array<{ name: string; comm: RegExp }> = [
  { name: 'PostgreSQL (all backends)', comm: /^postgres/ },
  { name: 'Kafka (java)', comm: /^java$/ },
  { name: 'Redis', comm: /^redis-server/ },
];

function infrastructureCpuSeconds(): Map<string, number> {
  const totals = new Map<string, number>();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return totals;
  }
  for (const pid of pids) {
    let comm = '';
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    const kind = INFRASTRUCTURE.find((k) => k.comm.test(comm));
    if (!kind) continue;
    const seconds = processCpuSeconds(Number(pid));
    if (seconds !== undefined) totals.set(kind.name, (totals.get(kind.name) ?? 0) + seconds);
  }
  return totals;
}

export interface CpuSample {
  at: number;
  processes: Map<string, number>;
  /** Per infrastructure kind; a backend that ended between two samples drops out (undercount). */
  infrastructure: Map<string, number>;
  bench: number;
  machine: ReturnType<typeof machineSeconds>;
}

export function sampleCpu(processes: ReadonlyArray<{ name: string; pid: number }>): CpuSample {
  const byName = new Map<string, number>();
  for (const proc of processes) {
    const seconds = processCpuSeconds(proc.pid);
    if (seconds !== undefined) byName.set(proc.name, seconds);
  }
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    processes: byName,
    infrastructure: infrastructureCpuSeconds(),
    bench: (own.user + own.system) / 1e6,
    machine: machineSeconds(),
  };
}

/** Cores used on average between two samples, per process, the bench, and the rest of the machine. */
export function cpuBetween(start: CpuSample, end: CpuSample): Array<{ name: string; cores: number }> {
  const seconds = (end.at - start.at) / 1000;
  const rows: Array<{ name: string; cores: number }> = [];
  let ours = 0;
  for (const [name, endSeconds] of end.processes) {
    const used = endSeconds - (start.processes.get(name) ?? endSeconds);
    ours += used;
    rows.push({ name, cores: used / seconds });
  }
  const bench = end.bench - start.bench;
  rows.push({ name: 'bench (load generator)', cores: bench / seconds });
  let infrastructure = 0;
  for (const [name, endSeconds] of end.infrastructure) {
    const used = endSeconds - (start.infrastructure.get(name) ?? 0);
    infrastructure += used;
    rows.push({ name, cores: used / seconds });
  }
  if (start.machine !== undefined && end.machine !== undefined) {
    const machine = end.machine.busy - start.machine.busy;
    // Interrupt time is no process's: on loopback, much of the peer's TCP receive path runs here.
    const interrupts = end.machine.interrupts - start.machine.interrupts;
    const steal = end.machine.steal - start.machine.steal;
    rows.push({ name: 'kernel interrupts (irq + softirq)', cores: interrupts / seconds });
    rows.push({ name: 'stolen by the hypervisor', cores: steal / seconds });
    rows.push({
      name: 'anything else on the machine',
      cores: (machine - ours - bench - infrastructure - interrupts - steal) / seconds,
    });
    rows.push({ name: `machine busy (of ${os.cpus().length} cores)`, cores: machine / seconds });
  }
  return rows;
}

/** The rows of cpuBetween as a table: cores used and CPU milliseconds per unit of work (`unit`). */
export function formatCpuTable(
  rows: ReadonlyArray<{ name: string; cores: number }>,
  unitsPerSecond: number,
  unit: string,
): string {
  const perUnit = `CPU ms per ${unit}`;
  const lines = [`  ${'process'.padEnd(42)}${'cores'.padStart(6)}${perUnit.padStart(perUnit.length + 4)}`];
  for (const row of rows) {
    const ms = (row.cores * 1000) / unitsPerSecond;
    lines.push(
      `  ${row.name.padEnd(42)}${row.cores.toFixed(2).padStart(6)}${ms.toFixed(3).padStart(perUnit.length + 4)}`,
    );
  }
  return lines.join('\n');
}
