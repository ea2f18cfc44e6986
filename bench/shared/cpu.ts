// Where the CPU went during the measured window: each process of the system (utime + stime from
// /proc/<pid>/stat, its children included), PostgreSQL (the postmaster and every backend, those
// that exited included), Redis and Kafka, the bench process itself, and the machine in all
// (/proc/stat). Linux only; elsewhere the table is empty.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';

/** The row of every process of the cluster (or of every cluster without a postmaster pid). */
export const POSTGRES_CLUSTER = 'PostgreSQL (all backends)';
/** The row of the run's own database's backends (sampleCpu's `database`). */
export const DATABASE_BACKENDS = "PostgreSQL (this run's database)";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface ProcStat {
  comm: string;
  ppid: number;
  /** utime + stime of the process itself (all its threads). */
  own: number;
  /** cutime + cstime: children that exited and were reaped (a PostgreSQL backend that closed). */
  reaped: number;
}

function readProcStat(pid: number): ProcStat | undefined {
  try {
    // The command name is in parentheses and may hold spaces; after it: state (3), ppid (4), ...,
    // utime (14), stime (15), cutime (16), cstime (17).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      ppid: Number(fields[1]),
      own: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
      reaped: (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

/** Every process of the machine, read once per sample (Linux /proc; empty elsewhere). */
function readAllProcStats(): Map<number, ProcStat> {
  const all = new Map<number, ProcStat>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return all;
  }
  for (const entry of entries) {
    const stat = readProcStat(Number(entry));
    if (stat) all.set(Number(entry), stat);
  }
  return all;
}

/**
 * CPU seconds of a process tree rooted at `pid`: the root, every child it reaped (cutime and
 * cstime, which is where a PostgreSQL backend's time goes when its connection closes) and its
 * live children. Summing only the live processes would lose a backend that exits between two
 * samples, and with it all the time it ever used.
 */
function treeCpuSeconds(pid: number, all: ReadonlyMap<number, ProcStat>): number | undefined {
  const root = all.get(pid);
  if (!root) return undefined;
  let seconds = root.own + root.reaped;
  for (const child of all.values()) if (child.ppid === pid) seconds += child.own + child.reaped;
  return seconds;
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

// The infrastructure's processes, told apart by their command name (/proc/<pid>/comm). A root is
// a matching process whose parent does not match (the postmaster, not its backends).
const INFRASTRUCTURE: Array<{ name: string; comm: RegExp }> = [
  { name: POSTGRES_CLUSTER, comm: /^postgres/ },
  { name: 'Kafka (java)', comm: /^java$/ },
  { name: 'Redis', comm: /^redis-server/ },
];

function infrastructureCpuSeconds(
  all: ReadonlyMap<number, ProcStat>,
  postmasterPid: number | undefined,
): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [pid, stat] of all) {
    const kind = INFRASTRUCTURE.find((k) => k.comm.test(stat.comm));
    if (!kind || kind.comm.test(all.get(stat.ppid)?.comm ?? '')) continue;
    // Another PostgreSQL cluster on the machine (a test's own) is not the system's.
    if (kind.name === POSTGRES_CLUSTER && postmasterPid !== undefined && pid !== postmasterPid) continue;
    const seconds = treeCpuSeconds(pid, all);
    if (seconds !== undefined) totals.set(kind.name, (totals.get(kind.name) ?? 0) + seconds);
  }
  return totals;
}

/**
 * CPU seconds of each live backend of `database` (a child of the postmaster whose process title,
 * `postgres: <user> <database> <client> <state>`, names it). The cluster is shared with other
 * databases (other test runs), whose backends this leaves out; a backend that exits between two
 * samples drops out (its time goes to the postmaster's reaped total), so this can undercount.
 */
function databaseBackendSeconds(
  all: ReadonlyMap<number, ProcStat>,
  postmasterPid: number,
  database: string,
): Map<number, number> {
  const backends = new Map<number, number>();
  for (const [pid, stat] of all) {
    if (stat.ppid !== postmasterPid) continue;
    let title = '';
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (title.split(/[\s\0]+/)[2] === database) backends.set(pid, stat.own + stat.reaped);
  }
  return backends;
}

/**
 * The postmaster of the cluster serving `databaseUrl`: the parent of the backend this connection
 * gets. Passed to sampleCpu so only that cluster's processes count as PostgreSQL.
 */
export async function postmasterPidOf(databaseUrl: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return readProcStat(rows[0]!.pid)?.ppid;
  } finally {
    await client.end();
  }
}

export interface CpuSample {
  at: number;
  processes: Map<string, number>;
  /** Per infrastructure kind, each a process tree (exited children included). */
  infrastructure: Map<string, number>;
  /** Per live backend of the run's database (sampleCpu's `database`), when asked for. */
  databaseBackends?: Map<number, number>;
  bench: number;
  machine: ReturnType<typeof machineSeconds>;
}

/**
 * CPU seconds so far of each of `processes` (with its children), of the infrastructure, of the
 * bench process and of the machine. `postmasterPid` (postmasterPidOf) limits PostgreSQL to one
 * cluster; without it every cluster on the machine counts. With `database` too, the backends of
 * that database are also summed apart (a row of their own, not part of the machine's total).
 */
export function sampleCpu(
  processes: ReadonlyArray<{ name: string; pid: number }>,
  opts: { postmasterPid?: number; database?: string } = {},
): CpuSample {
  const all = readAllProcStats();
  const byName = new Map<string, number>();
  for (const proc of processes) {
    const seconds = treeCpuSeconds(proc.pid, all);
    if (seconds !== undefined) byName.set(proc.name, seconds);
  }
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    processes: byName,
    infrastructure: infrastructureCpuSeconds(all, opts.postmasterPid),
    databaseBackends:
      opts.postmasterPid !== undefined && opts.database !== undefined
        ? databaseBackendSeconds(all, opts.postmasterPid, opts.database)
        : undefined,
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
  if (start.databaseBackends && end.databaseBackends) {
    // A subset of the cluster's row above: shown, not added to the machine's accounting.
    let used = 0;
    for (const [pid, endSeconds] of end.databaseBackends)
      used += endSeconds - (start.databaseBackends.get(pid) ?? 0);
    rows.push({ name: DATABASE_BACKENDS, cores: used / seconds });
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
