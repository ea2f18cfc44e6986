// The bench's child processes (receiver, baseline sender), forked with an IPC channel under the
// same loader the services run under (tsx, development export condition), their output in a log
// file. The parent side of ./receiver-process.ts and ./baseline-process.ts.
import { type ChildProcess, fork } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../test-e2e/harness';
import { cpuProfileEnv } from '../shared/results';
import type { BaselineRequest, BaselineResult } from './baseline-process';

export interface ReceiverStats {
  requests: number;
  /** Requests whose signature was checked (one in `verifyEvery`), and those that failed. */
  checked: number;
  badSignatures: number;
  unparsable: number;
  /** Per request, in arrival order: x-event-id, envelope data.transaction_id, occurred_at, arrival (epoch ms). */
  eventIds: string[];
  transactionIds: string[];
  occurredAtMs: number[];
  receivedAtMs: number[];
}

export interface BenchChild {
  name: string;
  pid: number;
  child: ChildProcess;
  logTail(): string;
  stop(): Promise<void>;
}

function forkChild(name: string, script: string, args: string[], logDir: string): BenchChild {
  const logFile = path.join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const child = fork(path.join(REPO_ROOT, script), args, {
    cwd: REPO_ROOT,
    execArgv: ['--conditions=development', '--import', 'tsx'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // BENCH_WEBHOOKS_PROF_CHILDREN=<dir>: the receiver and the baseline sender write CPU profiles too.
      ...cpuProfileEnv(process.env.BENCH_WEBHOOKS_PROF_CHILDREN),
    },
    stdio: ['ignore', fd, fd, 'ipc'],
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not fork ${name}`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    pid: child.pid,
    child,
    logTail: () => {
      try {
        return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-20).join('\n');
      } catch {
        return '(no log)';
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function firstMessage<T>(
  proc: BenchChild,
  accept: (message: unknown) => T | undefined,
  what: string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const value = accept(message);
      if (value === undefined) return;
      cleanup();
      resolve(value);
    };
    const onExit = () => {
      cleanup();
      reject(new Error(`${proc.name} exited before ${what}; last log lines:\n${proc.logTail()}`));
    };
    const cleanup = () => {
      proc.child.off('message', onMessage);
      proc.child.off('exit', onExit);
    };
    proc.child.on('message', onMessage);
    proc.child.once('exit', onExit);
  });
}

export interface Receiver extends BenchChild {
  url: string;
  setSecrets(path: string, secrets: string[]): void;
  count(path: string): Promise<number>;
  stats(path: string): Promise<ReceiverStats>;
  /** Resolves once `path` has had `count` requests; rejects after `timeoutMs`. */
  waitForCount(path: string, count: number, timeoutMs: number, pollMs?: number): Promise<void>;
}

export async function startReceiver(opts: { logDir: string; verifyEvery: number }): Promise<Receiver> {
  const proc = forkChild(
    'receiver',
    'bench/webhooks/receiver-process.ts',
    [String(opts.verifyEvery)],
    opts.logDir,
  );
  const port = await firstMessage(
    proc,
    (m) => ((m as { type?: string }).type === 'ready' ? (m as { port: number }).port : undefined),
    'listening',
  );
  let nextId = 0;
  const ask = <T>(type: 'count' | 'stats', path: string): Promise<T> => {
    const id = ++nextId;
    const answer = firstMessage(
      proc,
      (m) => {
        const msg = m as { type?: string; id?: number; count?: T; stats?: T };
        if (msg.type !== type || msg.id !== id) return undefined;
        return (type === 'count' ? msg.count : msg.stats) as T;
      },
      `answering ${type}`,
    );
    proc.child.send({ type, id, path });
    return answer;
  };
  const receiver: Receiver = {
    ...proc,
    url: `http://127.0.0.1:${port}`,
    setSecrets(path, secrets) {
      proc.child.send({ type: 'secrets', path, secrets });
    },
    count: (path) => ask<number>('count', path),
    stats: (path) => ask<ReceiverStats>('stats', path),
    async waitForCount(path, count, timeoutMs, pollMs = 50) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const seen = await receiver.count(path);
        if (seen >= count) return;
        if (Date.now() > deadline)
          throw new Error(`receiver: ${seen} of ${count} requests on ${path} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  };
  return receiver;
}

export interface BaselineSender extends BenchChild {
  /** Runs the warm-up, then the measured sends; `onStarted` when the measured sends begin. */
  run(request: BaselineRequest, onStarted: () => void): Promise<BaselineResult>;
}

export async function startBaselineSender(opts: { logDir: string }): Promise<BaselineSender> {
  const proc = forkChild('baseline-sender', 'bench/webhooks/baseline-process.ts', [], opts.logDir);
  await firstMessage(proc, (m) => ((m as { type?: string }).type === 'ready' ? true : undefined), 'ready');
  return {
    ...proc,
    run(request, onStarted) {
      const started = (m: unknown) => {
        if ((m as { type?: string }).type === 'started') onStarted();
      };
      proc.child.on('message', started);
      const done = firstMessage(
        proc,
        (m) =>
          (m as { type?: string }).type === 'done' ? (m as { result: BaselineResult }).result : undefined,
        'finishing its run',
      );
      proc.child.send({ type: 'run', request });
      return done.finally(() => proc.child.off('message', started));
    },
  };
}
