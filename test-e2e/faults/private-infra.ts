// The fault campaign's own PostgreSQL, Redis and Kafka (docs/testing.md "Fault campaign"): started
// by `scripts/infra up` under a private INFRA_STATE_DIR with the shared instances' variables
// removed, so it never reuses, restarts or flushes what other tests run on. The restarts read the
// state `scripts/infra` wrote (run dir, port, pid) and keep the same data directories.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../harness/processes';

const execFileAsync = promisify(execFile);

export interface PrivateInfra {
  databaseUrl: string;
  redisUrl: string;
  kafkaBrokers: string;
  /** Stops PostgreSQL (immediate: a crash), waits `downMs`, starts it on the same data directory. */
  restartPostgres(downMs: number): Promise<void>;
  /** FLUSHALL, then stops Redis, waits `downMs` and starts it again (empty: no persistence). */
  flushAndRestartRedis(downMs: number): Promise<void>;
  /** kill -9 of the broker, waits `downMs`, starts it again on the same log directory. */
  restartKafka(downMs: number): Promise<void>;
  /** `scripts/infra down` of the private state directory. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie answers kill(0) too (PID 1 may not reap daemons).
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`private infra: ${what} not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts the private set; `scripts/infra` logs go to the campaign's own log. */
export async function startPrivateInfra(log: (line: string) => void): Promise<PrivateInfra> {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-faults-infra-'));
  const env: NodeJS.ProcessEnv = { ...process.env, INFRA_STATE_DIR: stateDir };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.KAFKA_BROKERS;
  const infraScript = path.join(REPO_ROOT, 'scripts/infra');
  const { stdout, stderr } = await execFileAsync(infraScript, ['up'], {
    cwd: REPO_ROOT,
    env,
    timeout: 300_000,
  });
  for (const line of stderr.trim().split('\n')) log(line);
  const exported = Object.fromEntries(
    [...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, '')]),
  );
  const state = (svc: string, name: string) => readFileSync(path.join(stateDir, svc, name), 'utf8').trim();
  const setState = (svc: string, name: string, value: string) =>
    writeFileSync(path.join(stateDir, svc, name), `${value}\n`);
  const asRoot = process.getuid?.() === 0;
  const pgCtl = async (args: string[]) => {
    const bin = path.join(
      path.dirname(
        readFileSync(path.join(state('pg', 'rundir'), 'data/postmaster.opts'), 'utf8').split(' ')[0]!,
      ),
      'pg_ctl',
    );
    const command = [bin, ...args];
    if (asRoot) {
      const quoted = command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
      await execFileAsync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { timeout: 120_000 });
    } else {
      await execFileAsync(command[0]!, command.slice(1), { timeout: 120_000 });
    }
  };

  return {
    databaseUrl: exported.DATABASE_URL!,
    redisUrl: exported.REDIS_URL!,
    kafkaBrokers: exported.KAFKA_BROKERS!,

    async restartPostgres(downMs) {
      const dataDir = path.join(state('pg', 'rundir'), 'data');
      // postmaster.opts holds the server's command line: the binary, then each argument quoted.
      const opts = [
        ...readFileSync(path.join(dataDir, 'postmaster.opts'), 'utf8').matchAll(/"([^"]*)"/g),
      ].map((m) => m[1]!);
      const dIndex = opts.indexOf('-D');
      if (dIndex >= 0) opts.splice(dIndex, 2);
      await pgCtl(['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      await sleep(downMs);
      await pgCtl([
        '-D',
        dataDir,
        '-l',
        path.join(state('pg', 'rundir'), 'postgres.log'),
        '-w',
        '-t',
        '60',
        'start',
        '-o',
        opts.join(' '),
      ]);
      setState('pg', 'pid', readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]!);
    },

    async flushAndRestartRedis(downMs) {
      const port = state('redis', 'port');
      const rundir = state('redis', 'rundir');
      const pid = Number(state('redis', 'pid'));
      await execFileAsync('redis-cli', ['-p', port, 'FLUSHALL'], { timeout: 10_000 });
      await execFileAsync('redis-cli', ['-p', port, 'SHUTDOWN', 'NOSAVE'], { timeout: 10_000 }).catch(
        () => {},
      );
      await waitFor('redis to exit', () => !alive(pid), 30_000);
      await sleep(downMs);
      // The same command line as scripts/infra's start_redis.
      await execFileAsync(
        'redis-server',
        [
          '--port',
          port,
          '--bind',
          '127.0.0.1',
          '--daemonize',
          'yes',
          '--dir',
          rundir,
          '--pidfile',
          path.join(rundir, 'redis.pid'),
          '--logfile',
          path.join(rundir, 'redis.log'),
          '--save',
          '',
          '--appendonly',
          'no',
          '--maxclients',
          '2000',
        ],
        { timeout: 30_000 },
      );
      await waitFor('redis to answer', () => portOpen(Number(port)), 30_000);
      // The daemon writes its pid file a moment after it listens; `scripts/infra down` stops that pid.
      const pidFile = path.join(rundir, 'redis.pid');
      await waitFor(
        'redis pid file',
        () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
        10_000,
      );
      setState('redis', 'pid', readFileSync(pidFile, 'utf8').trim());
    },

    async restartKafka(downMs) {
      const pid = Number(state('kafka', 'pid'));
      const rundir = state('kafka', 'rundir');
      const port = Number(state('kafka', 'port'));
      // The broker's own command line (scripts/infra's run_kafka), read before it dies.
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      process.kill(pid, 'SIGKILL');
      await waitFor('kafka to die', () => !alive(pid), 30_000);
      await sleep(downMs);
      const out = openSync(path.join(rundir, 'kafka.log'), 'a');
      const child = spawn(argv[0]!, argv.slice(1), {
        cwd: REPO_ROOT,
        detached: true,
        stdio: ['ignore', out, out],
      });
      child.unref();
      setState('kafka', 'pid', String(child.pid));
      await waitFor('kafka to listen', () => portOpen(port), 90_000);
    },

    async stop() {
      await execFileAsync(infraScript, ['down'], { cwd: REPO_ROOT, env, timeout: 120_000 }).catch(
        (err: Error) => log(`scripts/infra down failed: ${err.message}`),
      );
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
