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

/** A program the chart deploys (charts/qr-payout/README.md "Image": one image, an entry point each). */
export type Deployable = 'gateway' | 'decoder' | 'fx' | 'payout' | 'webhook' | 'partner-sim';

/** Each deployable's entry point in the source tree; the image runs its build, <package>/dist/main.js. */
export const ENTRY_POINTS: Record<Deployable, string> = {
  gateway: 'gateway/src/main.ts',
  decoder: 'services/decoder/src/main.ts',
  fx: 'services/fx/src/main.ts',
  payout: 'services/payout/src/main.ts',
  webhook: 'services/webhook/src/main.ts',
  'partner-sim': 'partner-sim/src/main.ts',
};

/** What to execute for one process: program, arguments, working directory and environment. */
export interface Launch {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * How the harness starts a deployable: from its TypeScript source (fromSource, the default) or from
 * the built image (test-e2e/support/image.ts).
 */
export type Launcher = (deployable: Deployable, env: NodeJS.ProcessEnv) => Launch;

/** A TypeScript script under the current Node: tsx loader, development export condition, telemetry preload. */
function tsLaunch(script: string, args: string[], env: NodeJS.ProcessEnv): Launch {
  return {
    command: process.execPath,
    args: [
      '--conditions=development',
      '--import',
      'tsx',
      '--require',
      TELEMETRY_PRELOAD,
      path.join(REPO_ROOT, script),
      ...args,
    ],
    cwd: REPO_ROOT,
    env,
  };
}

export const fromSource: Launcher = (deployable, env) => tsLaunch(ENTRY_POINTS[deployable], [], env);

/** Where the build (`tsc -b tsconfig.build.json`) puts an entry point: <package>/dist/…/main.js. */
export function builtEntryPoint(source: string): string {
  return source.replace('/src/', '/dist/').replace(/\.ts$/, '.js');
}

/**
 * Runs a deployable from the build, as the image's ENTRYPOINT does (deploy/Dockerfile): no tsx, no
 * development condition, the built telemetry preload. Half the CPU of a start from source, which
 * the e2e stages pay for every process of every system they start (docs/testing.md "What `npm test` runs").
 */
export const fromBuild: Launcher = (deployable, env) => ({
  command: process.execPath,
  args: [
    '--enable-source-maps',
    '--require',
    path.join(REPO_ROOT, builtEntryPoint(path.relative(REPO_ROOT, TELEMETRY_PRELOAD))),
    path.join(REPO_ROOT, builtEntryPoint(ENTRY_POINTS[deployable])),
  ],
  cwd: REPO_ROOT,
  env,
});

/**
 * The launcher of a system that names none: from the build when E2E_LAUNCH=build (test-all sets it
 * after its build stage, so the build is the checkout's), else from source, so a local run never
 * starts a stale build.
 */
export function defaultLauncher(): Launcher {
  return process.env.E2E_LAUNCH === 'build' ? fromBuild : fromSource;
}

/**
 * Runs a TypeScript entry point as its own process under the current Node, the way the e2e brief
 * and the Dockerfiles run a deployable: tsx loader, development export condition, telemetry preload.
 */
export function spawnTsProcess(opts: SpawnOptions): ManagedProcess {
  return spawnProcess(opts.name, tsLaunch(opts.script, opts.args ?? [], opts.env), opts.logDir);
}

/** Starts one process as `launch` says, its output into <logDir>/<name>.log. */
export function spawnProcess(name: string, launch: Launch, logDir: string): ManagedProcess {
  const logFile = path.join(logDir, `${name}.log`);
  // The child writes straight into the file: no pipe that a quiet parent could let fill up.
  const fd = openSync(logFile, 'a');
  const child = spawn(launch.command, launch.args, {
    cwd: launch.cwd,
    env: launch.env,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not spawn ${name}`);

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
    name,
    pid: child.pid,
    child,
    logFile,
    exited,
    hasExited: () => exitResult !== undefined,
    logTail,
    stop,
  };
}
