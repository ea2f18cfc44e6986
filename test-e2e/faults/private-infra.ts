// The fault campaign's own PostgreSQL, Redis and Kafka (docs/testing.md "Fault campaign"): started
// by `scripts/infra up` under a private INFRA_STATE_DIR with the shared instances' variables
// removed, so it never reuses, restarts or flushes what other tests run on. The restarts read the
// state `scripts/infra` wrote (run dir, port, pid) and keep the same data directories. Kafka is one
// node, or with `kafkaNodes: 3` the three-node KRaft cluster (docs/testing.md "Kafka as a
// three-node cluster"), whose nodes can be killed one at a time.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createKafkaBus, TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { silentLogger } from '@qr-payout/platform/log';
import { topicSettingsFor } from '@qr-payout/test-kit/kafka-topics';
import { type Admin, Kafka, logLevel } from 'kafkajs';
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
  /** Kafka's node count: 1, or 3 with `startPrivateInfra(log, { kafkaNodes: 3 })`. */
  kafkaNodes: number;
  /**
   * kill -9 of every Kafka node, waits `downMs`, starts each again on its log directory; returns
   * once they listen (and, on the cluster, are all registered again).
   */
  restartKafka(downMs: number): Promise<void>;
  /**
   * kill -9 of Kafka node `index` (0-based; its KRaft node.id is index + 1), waits `downMs`, starts
   * it again on its log directory and returns once it is registered again and back in the ISR of
   * every partition of the transaction events topic (when that topic exists).
   */
  killKafkaNode(index: number, downMs: number): Promise<void>;
  /** The index of the node that is the active KRaft controller now (0 on a single node). */
  controllerNode(): Promise<number>;
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

/** A throwaway kafkajs admin for one check; quiet, no retries (the callers poll). */
async function withAdmin<T>(brokers: string[], use: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = new Kafka({
    clientId: 'private-infra',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2000,
    requestTimeout: 5000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    return await use(admin);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Whether the metadata lists the broker `nodeId`, and it is in the ISR of every partition of `topic`. */
async function nodeInService(brokers: string[], nodeId: number, topic: string): Promise<boolean> {
  try {
    return await withAdmin(brokers, async (admin) => {
      const { brokers: registered } = await admin.describeCluster();
      if (!registered.some((b) => b.nodeId === nodeId)) return false;
      if (!(await admin.listTopics()).includes(topic)) return true;
      const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
      return (metadata?.partitions ?? []).every((p) => p.isr.includes(nodeId));
    });
  } catch {
    return false;
  }
}

export interface PrivateInfraOptions {
  /**
   * 3: Kafka as the three-node KRaft cluster (`KAFKA_NODES=3 scripts/infra up`), with the
   * transaction events topic created at production's replication 3, min ISR 2. Default 1.
   */
  kafkaNodes?: 1 | 3;
}

/** Starts the private set; `scripts/infra` logs go to the campaign's own log. */
export async function startPrivateInfra(
  log: (line: string) => void,
  options: PrivateInfraOptions = {},
): Promise<PrivateInfra> {
  const kafkaNodes = options.kafkaNodes ?? 1;
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-faults-infra-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    INFRA_STATE_DIR: stateDir,
    KAFKA_NODES: String(kafkaNodes),
    // PostgreSQL is crashed here (immediate stop): its commits must be durable as production's are,
    // or a commit it acknowledged could vanish and count as a loss of ours (docs/testing.md
    // "Fault campaign").
    INFRA_PG_CRASH_SAFE: '1',
  };
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
  // `printf %q` output: maybe single-quoted, and a comma list comes with its commas escaped.
  const exported = Object.fromEntries(
    [...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [
      m[1]!,
      m[2]!.replace(/^'|'$/g, '').replace(/\\(.)/g, '$1'),
    ]),
  );
  const state = (svc: string, name: string) => readFileSync(path.join(stateDir, svc, name), 'utf8').trim();
  const setState = (svc: string, name: string, value: string) =>
    writeFileSync(path.join(stateDir, svc, name), `${value}\n`);
  const kafkaBrokers = exported.KAFKA_BROKERS!.split(',');

  // Each Kafka node's state as scripts/infra wrote it: kafka/{pid,port,rundir} for one node,
  // kafka/node-<id>/{pid,port,log,logdir} for each node of the cluster.
  const nodeDir = (index: number) => (kafkaNodes === 1 ? 'kafka' : path.join('kafka', `node-${index + 1}`));
  const kafkaNode = (index: number) => {
    if (!Number.isInteger(index) || index < 0 || index >= kafkaNodes) {
      throw new Error(`private infra: no Kafka node ${index} (0..${kafkaNodes - 1})`);
    }
    const dir = nodeDir(index);
    const rundir = kafkaNodes === 1 ? state('kafka', 'rundir') : undefined;
    return {
      pid: Number(state(dir, 'pid')),
      port: Number(state(dir, 'port')),
      log: rundir ? path.join(rundir, 'kafka.log') : state(dir, 'log'),
      logDir: rundir ? path.join(rundir, 'data') : state(dir, 'logdir'),
    };
  };
  /** kill -9 of a node; returns its command line (scripts/infra's launch_kafka), read before it dies. */
  const killNode = async (index: number): Promise<string[]> => {
    const { pid } = kafkaNode(index);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    process.kill(pid, 'SIGKILL');
    await waitFor(`kafka node ${index} to die`, () => !alive(pid), 30_000);
    return argv;
  };
  /** Starts a node again with the same command line, config and log dir; waits until it listens. */
  const startNode = async (index: number, argv: string[]) => {
    const { log: logFile, port } = kafkaNode(index);
    const out = openSync(logFile, 'a');
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ['ignore', out, out],
    });
    child.unref();
    setState(nodeDir(index), 'pid', String(child.pid));
    await waitFor(`kafka node ${index} to listen`, () => portOpen(port), 90_000);
  };
  const allIndexes = Array.from({ length: kafkaNodes }, (_, index) => index);

  const stop = async () => {
    await execFileAsync(infraScript, ['down'], { cwd: REPO_ROOT, env, timeout: 120_000 }).catch(
      (err: Error) => log(`scripts/infra down failed: ${err.message}`),
    );
    rmSync(stateDir, { recursive: true, force: true });
  };

  if (kafkaNodes > 1) {
    // What creates the events topic for a campaign on the cluster: production's settings (the
    // payout relay's auto-creation would get only the brokers' defaults).
    const bus = createKafkaBus({ brokers: kafkaBrokers, clientId: 'private-infra', logger: silentLogger() });
    try {
      await bus.ensureTopics([TRANSACTION_EVENTS_TOPIC], 3, topicSettingsFor(kafkaNodes));
    } catch (err) {
      await stop(); // the caller gets no handle to stop what `up` started
      throw err;
    } finally {
      await bus.close();
    }
  }
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
    kafkaBrokers: kafkaBrokers.join(','),
    kafkaNodes,

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
      const argvs = await Promise.all(allIndexes.map((index) => killNode(index)));
      await sleep(downMs);
      await Promise.all(allIndexes.map((index) => startNode(index, argvs[index]!)));
      if (kafkaNodes > 1) {
        await waitFor(
          'every kafka node to register again',
          async () =>
            withAdmin(kafkaBrokers, async (admin) => (await admin.describeCluster()).brokers.length).then(
              (registered) => registered === kafkaNodes,
              () => false,
            ),
          90_000,
        );
      }
    },

    async killKafkaNode(index, downMs) {
      const argv = await killNode(index);
      const started = Date.now();
      await sleep(downMs);
      await startNode(index, argv);
      const live = kafkaBrokers.filter((_, i) => i !== index);
      await waitFor(
        `kafka node ${index} back in the ISR of ${TRANSACTION_EVENTS_TOPIC}`,
        () => nodeInService(live.length > 0 ? live : kafkaBrokers, index + 1, TRANSACTION_EVENTS_TOPIC),
        90_000,
      );
      log(
        `kafka node ${index} (node.id ${index + 1}) killed, back in service ${Date.now() - started} ms later`,
      );
    },

    async controllerNode() {
      // kafkajs' describeCluster names a random live broker as the controller under KRaft (clients
      // never talk to the controller), so ask the quorum itself: each voter's quorum-state file
      // names the leader of the latest epoch it knows; the live voters' highest epoch wins.
      let best: { epoch: number; leaderId: number } | undefined;
      for (const index of allIndexes) {
        const node = kafkaNode(index);
        if (!alive(node.pid)) continue;
        const file = path.join(node.logDir, '__cluster_metadata-0', 'quorum-state');
        if (!existsSync(file)) continue;
        const quorum = JSON.parse(readFileSync(file, 'utf8')) as { leaderId: number; leaderEpoch: number };
        if (quorum.leaderId >= 0 && (!best || quorum.leaderEpoch > best.epoch)) {
          best = { epoch: quorum.leaderEpoch, leaderId: quorum.leaderId };
        }
      }
      if (!best) throw new Error('private infra: no live Kafka node knows a KRaft leader');
      return best.leaderId - 1;
    },

    stop,
  };
}
