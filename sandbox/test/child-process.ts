import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

// PGlite loads Node built-ins with dynamic import(), which Jest's module sandbox refuses without
// --experimental-vm-modules. So the tests run whatever holds PGlite as a child process, which is
// also how `npm start` runs it.

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export type RunningChild = {
  child: ChildProcess;
  /** Everything the child printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the first output line matching `pattern`; rejects on exit or timeout. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** Sends `signal` (SIGTERM by default), SIGKILL after the deadline; resolves with the exit code or signal. */
  stop(signal?: NodeJS.Signals, deadlineMs?: number): Promise<number | string>;
  exited: Promise<number | string>;
};

/** Runs a TypeScript entry point under the current Node with tsx and the development condition. */
export function spawnTs(script: string, env: NodeJS.ProcessEnv, args: string[] = []): RunningChild {
  return spawnCommand(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', path.join(REPO_ROOT, script), ...args],
    env,
  );
}

/**
 * Runs a command from the repository root, in a process group of its own when `detached` (so a test
 * can tell whether anything it started is left: process.kill(-pid, 0)).
 */
export function spawnCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  { detached = false } = {},
): RunningChild {
  const script = [command, ...args].join(' ');
  const child = spawn(command, args, { cwd: REPO_ROOT, env, detached, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  let exitResult: number | string | undefined;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitResult = code ?? signal ?? 'unknown';
      for (const listener of listeners) listener();
      resolve(exitResult);
    });
  });

  function waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (const line of text.split('\n')) {
          const match = pattern.exec(line);
          if (match) return done(() => resolve(match));
        }
        if (exitResult !== undefined) {
          done(() =>
            reject(new Error(`${script} exited (${exitResult}) before printing ${pattern}:\n${tail()}`)),
          );
        }
      };
      const timer = setTimeout(
        () =>
          done(() =>
            reject(new Error(`${script} did not print ${pattern} within ${timeoutMs} ms:\n${tail()}`)),
          ),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });
  }

  const tail = () => text.trimEnd().split('\n').slice(-40).join('\n');

  async function stop(signal: NodeJS.Signals = 'SIGTERM', deadlineMs = 20_000): Promise<number | string> {
    if (exitResult !== undefined) return exitResult;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  }

  return { child, output: () => text, waitForLine, stop, exited };
}

/**
 * The parent's PATH and HOME only: nothing else of the test runner's environment leaks in, but the
 * tools cache that `npm start` gets from scripts/node24 (QR_PAYOUT_TOOLS: the initdb cluster).
 */
export function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'QR_PAYOUT_TOOLS']) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return env;
}
