import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The telemetry preload every deployable runs under (conventions: telemetry starts first). */
export const TELEMETRY_PRELOAD = path.join(REPO_ROOT, 'services/platform/src/telemetry/preload.ts');

export interface ManagedProcess {
  name: string;
  pid: number;
  child: ChildProcess;
  /** File holding the child's stdout and stderr, interleaved. */
  logFile: string;
  /** Resolves with the exit code (or signal name) once the child has exited. */
  exited: Promise<number | string>;
  hasExited(): boolean;
  /** Last lines of the child's log, for failure messages. */
  logTail(lines?: number): string;
  /** SIGTERM, then SIGKILL when the child outlives the deadline. */
  stop(deadlineMs?: number): Promise<number | string>;
}

export interface SpawnOptions {
  name: string;
  /** Script relative to the repository root, e.g. services/decoder/src/main.ts. */
  script: string;
  args?: string[];
  env: NodeJS.ProcessEnv;
  logDir: string;
}

/**
 * Runs a TypeScript entry point as its own process under the current Node, the way the e2e brief
 * and the Dockerfiles run a deployable: tsx loader, development export condition, telemetry preload.
 */
export function spawnTsProcess(opts: SpawnOptions): ManagedProcess {
  const logFile = path.join(opts.logDir, `${opts.name}.log`);
  // The child writes straight into the file: no pipe that a quiet parent could let fill up.
  const fd = openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    [
      '--conditions=development',
      '--import',
      'tsx',
      '--require',
      TELEMETRY_PRELOAD,
      path.join(REPO_ROOT, opts.script),
      ...(opts.args ?? []),
    ],
    { cwd: REPO_ROOT, env: opts.env, stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not spawn ${opts.name}`);

  let exitResult: number | string | undefined;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitResult = code ?? signal ?? 'unknown';
      resolve(exitResult);
    });
  });

  const logTail = (lines = 40) => {
    try {
      return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  };

  const stop = async (deadlineMs = 15_000) => {
    if (exitResult !== undefined) return exitResult;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    name: opts.name,
    pid: child.pid,
    child,
    logFile,
    exited,
    hasExited: () => exitResult !== undefined,
    logTail,
    stop,
  };
}
