// The JSON record of a bench run under .data/bench/ (ignored by git), so runs can be compared later.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Writes `{ bench, machine, settings, ...results }` to .data/bench/<bench>-<time>.json; returns the file. */
export function writeBenchResults(
  repoRoot: string,
  bench: string,
  settings: Record<string, unknown>,
  results: object,
): string {
  const dir = path.join(repoRoot, '.data', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${bench}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '' };
  writeFileSync(file, `${JSON.stringify({ bench, machine, settings, ...results }, null, 2)}\n`);
  return file;
}

/** NODE_OPTIONS that make a Node process write V8 CPU profiles to `dir` on exit (none when unset). */
export function cpuProfileEnv(dir: string | undefined): NodeJS.ProcessEnv {
  return dir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(dir)}` } : {};
}
