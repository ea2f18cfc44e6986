// Where a V8 CPU profile's time went (the .cpuprofile files BENCH_CPU_PROF_DIR makes): the top
// functions by self time, and the self time grouped by where the code lives (our packages, each
// npm package, V8's garbage collector). Idle time is left out and shares are of the busy time.
// Time in Node's internals and native code (a socket write, a hash) is charged to the package
// that called it, the first caller outside them, so a write to Redis counts as ioredis. V8
// samples the wall clock: on a busy machine a sample also lands where the thread was preempted,
// often in a system call.
//
//   node --import tsx bench/shared/profile-summary.ts <file.cpuprofile> [top=10] [last seconds]
//
// With `last seconds`, only the samples of the profile's last that many seconds count (e.g. a
// process left idle after its start: bench/README.md "scale-out").
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  ms: number;
  share: number;
}

/** The group a function's code belongs to, from its script URL. */
export function groupOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'V8 garbage collector';
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(program)' || url === '') return 'V8 / native (program)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const repo = url.match(/\/(services\/[^/]+|gateway|partner-sim|proto)\//);
  return repo ? `ours: ${repo[1]}` : 'other';
}

const UNCHARGED = new Set(['node internals', 'V8 / native (program)']);

/**
 * Busy self time per function and per group (see the top of this file), in ms, largest first;
 * with `lastSeconds`, of the samples in the profile's last that many seconds only.
 */
export function summarizeProfile(
  profile: CpuProfile,
  lastSeconds?: number,
): {
  busyMs: number;
  functions: ProfileShare[];
  groups: ProfileShare[];
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const chargedGroup = (id: number): string => {
    const own = byId.get(id)!.callFrame;
    const ownGroup = groupOf(own.url, own.functionName);
    if (!UNCHARGED.has(ownGroup) || own.functionName === '(program)') return ownGroup;
    for (let up = parentOf.get(id); up !== undefined; up = parentOf.get(up)) {
      const frame = byId.get(up)!.callFrame;
      const group = groupOf(frame.url, frame.functionName);
      if (!UNCHARGED.has(group)) return group;
    }
    return ownGroup;
  };
  const selfUs = new Map<number, number>();
  // timeDeltas[i] is the time before sample i; it is charged to the sample's node.
  let first = 0;
  if (lastSeconds !== undefined) {
    let fromEnd = 0;
    for (first = profile.samples.length; first > 0; first--) {
      fromEnd += profile.timeDeltas[first - 1] ?? 0;
      if (fromEnd > lastSeconds * 1e6) break;
    }
  }
  for (let i = first; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const functions = new Map<string, number>();
  const groups = new Map<string, number>();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    const group = chargedGroup(id);
    const key = `${functionName || '(anonymous)'} ${where} [${group}]`;
    functions.set(key, (functions.get(key) ?? 0) + us);
    groups.set(group, (groups.get(group) ?? 0) + us);
    totalUs += us;
  }
  const ranked = (m: Map<string, number>) =>
    [...m].map(([name, us]) => ({ name, ms: us / 1000, share: us / totalUs })).sort((a, b) => b.ms - a.ms);
  return { busyMs: totalUs / 1000, functions: ranked(functions), groups: ranked(groups) };
}

function main(): void {
  const [file, topArg, lastArg] = process.argv.slice(2);
  if (!file) {
    console.error(
      'usage: node --import tsx bench/shared/profile-summary.ts <file.cpuprofile> [top=10] [last seconds]',
    );
    process.exitCode = 2;
    return;
  }
  const top = Number(topArg ?? 10);
  const summary = summarizeProfile(
    JSON.parse(readFileSync(file, 'utf8')) as CpuProfile,
    lastArg === undefined ? undefined : Number(lastArg),
  );
  const line = (s: ProfileShare) =>
    `  ${(s.share * 100).toFixed(1).padStart(5)}%  ${s.ms.toFixed(0).padStart(7)} ms  ${s.name}`;
  console.log(`${file}: ${summary.busyMs.toFixed(0)} ms busy${lastArg ? ` in its last ${lastArg} s` : ''}`);
  console.log(`top ${top} functions by self time:`);
  for (const f of summary.functions.slice(0, top)) console.log(line(f));
  console.log('self time by group (natives charged to their caller):');
  for (const g of summary.groups) console.log(line(g));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) main();
