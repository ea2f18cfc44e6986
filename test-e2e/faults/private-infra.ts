// The fault campaign's own PostgreSQL, Redis and Kafka (docs/testing.md "Fault campaign"): started
// by `scripts/infra up` under a private INFRA_STATE_DIR with the shared instances' variables
// removed, so it never reuses, restarts or flushes what other tests run on. The restarts read the
// state `scripts/infra` wrote (run dir, port, pid) and keep the same data directories. Kafka is one
// node, or with `kafkaNodes: 3` the three-node KRaft cluster (docs/testing.md "Kafka as a
// three-node cluster"), whose nodes can be killed one at a time. With `pgStandby: true` PostgreSQL
// is a primary and a synchronous streaming standby behind one Toxiproxy address, and
// `switchoverPostgres()` / `failoverPostgres()` promote the standby (docs/testing.md "PostgreSQL
// with a standby").
import { execFile, spawn } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createKafkaBus, TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { silentLogger } from '@qr-payout/platform/log';
import { topicSettingsFor } from '@qr-payout/test-kit/kafka-topics';
import { type Admin, Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { REPO_ROOT } from '../harness/processes';
import { type LinkFaults, type LinkProxy, startLinkFaults, viaProxy } from './link-faults';

const execFileAsync = promisify(execFile);

/** How a PostgreSQL switchover or failover went; epoch milliseconds (docs/testing.md "PostgreSQL with a standby"). */
export interface PgSwitchReport {
  kind: 'switchover' | 'failover';
  /** The stop (fast or immediate) of the primary was issued: writes end here. */
  startedAt: number;
  /** The old primary is down. */
  primaryDownAt: number;
  /** Switchover only: the standby has replayed the old primary's shutdown checkpoint. */
  caughtUpAt?: number;
  /** The promoted node commits a write. */
  writableAt: number;
  /** The one address reaches the new primary: writes through it are possible again. */
  repointedAt: number;
  /** repointedAt - startedAt: how long no write could commit through the address. */
  unavailableMs: number;
  /** When the old primary streamed again as the synchronous standby (`rejoin`, after the repoint). */
  rejoinedAt?: number;
  /** Ports of the old and the new primary. */
  from: number;
  to: number;
}

export interface PrivateInfra {
  /**
   * The PostgreSQL server URL the system is given. With `pgStandby`, a Toxiproxy address in front
   * of whichever node is the primary (a cloud's or CloudNativePG's `-rw` service, one address).
   */
  databaseUrl: string;
  redisUrl: string;
  kafkaBrokers: string;
  /** Stops PostgreSQL (immediate: a crash), waits `downMs`, starts it on the same data directory. */
  restartPostgres(downMs: number): Promise<void>;
  /** FLUSHALL, then stops Redis, waits `downMs` and starts it again (empty: no persistence). */
  flushAndRestartRedis(downMs: number): Promise<void>;
  /** Kafka's node count: 1, or 3 with `startPrivateInfra(log, { kafkaNodes: 3 })`. */
  kafkaNodes: number;
  /** With `kafkaSaslSsl`: the SASL_SSL listener, the CA that signed its certificate, the user. */
  kafkaSaslSsl?: { brokers: string; caFile: string; username: string; password: string };
  /** With `tls`: PostgreSQL's CA, and Redis's TLS address and CA. */
  tls?: { pgCaFile: string; redisUrl: string; redisCaFile: string };
  /**
   * With `kafkaProxyPorts`: node i's PROXIED listener (`host:port`), advertised at
   * `127.0.0.1:kafkaProxyPorts[i]`; a fault proxy listening there forwards to it. Empty otherwise.
   */
  kafkaProxiedListeners: string[];
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
  /** `pgStandby` only: the PostgreSQL nodes, their ports and roles now. */
  postgresNodes(): { port: number; role: 'primary' | 'standby' | 'stopped' }[];
  /**
   * `pgStandby` only. A planned switchover: the primary stopped in fast mode (its WAL senders hand
   * the standby everything up to the shutdown checkpoint), the standby's replay past that
   * checkpoint, `pg_promote()`, a committed write on it, the address repointed to it. Then, unless
   * `rejoin: false`, the old primary rejoins as the synchronous standby (as CloudNativePG restarts
   * a demoted primary as a replica), so another switch can follow.
   */
  switchoverPostgres(opts?: { rejoin?: boolean }): Promise<PgSwitchReport>;
  /**
   * `pgStandby` only. A failover: the primary stopped in immediate mode (a crash), the standby
   * promoted (it replays every WAL record it received first), the address repointed to it. The
   * crashed node stays down unless `rejoin: true` (pg_rewind, then a standby again).
   */
  failoverPostgres(opts?: { rejoin?: boolean }): Promise<PgSwitchReport>;
  /**
   * `pgStandby` only, after a switch left no standby: the old primary started again as the
   * synchronous standby of the new one. After a crash it is rewound first (`pg_rewind`: it may
   * hold WAL past the point where the new primary's timeline forked, never acknowledged to anyone
   * under synchronous replication).
   */
  rejoinOldPrimary(): Promise<void>;
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
  /**
   * PostgreSQL as a primary and a streaming standby with synchronous replication
   * (`INFRA_PG_STANDBY=1 scripts/infra up`), reached through one Toxiproxy address that
   * `switchoverPostgres()` and `failoverPostgres()` repoint (docs/testing.md "PostgreSQL with a
   * standby").
   */
  pgStandby?: boolean;
  /**
   * false: PostgreSQL acknowledges a commit before its WAL is written (`synchronous_commit=off`,
   * `scripts/infra`'s default for speed), so an immediate stop can lose commits it acknowledged.
   * Default true, as production's PostgreSQL is; false only to show what that costs
   * (`test-e2e/pg-crash.e2e.test.ts`).
   */
  crashSafe?: boolean;
  /**
   * With `kafkaNodes: 3`, one port per node: each node gets a second client listener advertised at
   * 127.0.0.1:<port>, where the caller is to put a fault proxy (`INFRA_KAFKA_PROXY_PORTS`,
   * scripts/infra). A client bootstrapped through those proxies reaches every broker through them.
   */
  kafkaProxyPorts?: readonly number[];
  /**
   * One Kafka node only: it also listens with SASL_SSL (`INFRA_KAFKA_SASL_SSL=1`, scripts/infra):
   * a test CA, PLAIN and SCRAM for one user. See `kafkaSaslSsl` of the result.
   */
  kafkaSaslSsl?: boolean;
  /**
   * PostgreSQL with ssl on and Redis with a TLS port, each with a test CA (`INFRA_PG_SSL=1`,
   * `INFRA_REDIS_TLS=1`, scripts/infra). See `tls` of the result.
   */
  tls?: boolean;
}

/** The name the standby streams under (scripts/infra's PG_STANDBY_NAME): synchronous_standby_names. */
const PG_STANDBY_NAME = 'standby';

/** One query on a fresh connection to 127.0.0.1:port (no pool: a node may be going away). */
async function pgQuery<T = Record<string, unknown>>(port: number, sql: string): Promise<T[]> {
  const client = new pg.Client({
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    connectionTimeoutMillis: 2_000,
    query_timeout: 10_000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `check` on the node until it answers true; errors (a node starting or stopping) count as false. */
const pgUntil = (what: string, port: number, sql: string, timeoutMs = 60_000) =>
  waitFor(
    what,
    () =>
      pgQuery<{ ok: boolean }>(port, sql).then(
        (rows) => rows[0]?.ok === true,
        () => false,
      ),
    timeoutMs,
  );

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
    INFRA_PG_CRASH_SAFE: options.crashSafe === false ? '0' : '1',
    INFRA_PG_STANDBY: options.pgStandby ? '1' : '0',
    INFRA_KAFKA_PROXY_PORTS: options.kafkaProxyPorts?.join(',') ?? '',
    INFRA_KAFKA_SASL_SSL: options.kafkaSaslSsl ? '1' : '0',
    INFRA_PG_SSL: options.tls ? '1' : '0',
    INFRA_REDIS_TLS: options.tls ? '1' : '0',
  };
  if (options.tls && options.pgStandby) throw new Error('private infra: tls is not made for a standby');
  if (options.kafkaSaslSsl && kafkaNodes !== 1)
    throw new Error('private infra: kafkaSaslSsl needs one Kafka node');
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

  let links: LinkFaults | undefined;
  const stop = async () => {
    await links?.stop().catch((err: Error) => log(`toxiproxy stop failed: ${err.message}`));
    await execFileAsync(infraScript, ['down'], { cwd: REPO_ROOT, env, timeout: 120_000 }).catch(
      (err: Error) => log(`scripts/infra down failed: ${err.message}`),
    );
    rmSync(stateDir, { recursive: true, force: true });
  };

  // The PostgreSQL nodes as scripts/infra recorded them: pg/ the first primary, pg/standby/ the
  // standby (docs/testing.md "PostgreSQL with a standby"). The roles move with a switch.
  const pgNodes = [
    { dir: 'pg', dataDir: () => path.join(state('pg', 'rundir'), 'data'), log: 'postgres.log' },
    ...(options.pgStandby
      ? [
          {
            dir: path.join('pg', 'standby'),
            dataDir: () => state(path.join('pg', 'standby'), 'datadir'),
            log: 'standby.log',
          },
        ]
      : []),
  ].map((node) => ({ ...node, port: () => Number(state(node.dir, 'port')) }));
  let primary = 0;
  let standby: number | undefined = options.pgStandby ? 1 : undefined;
  let pgProxy: LinkProxy | undefined;
  let databaseUrl = exported.DATABASE_URL!;
  if (options.pgStandby) {
    try {
      links = await startLinkFaults();
      pgProxy = await links.proxy('system→postgres', exported.DATABASE_URL!);
      databaseUrl = viaProxy(exported.DATABASE_URL!, pgProxy);
      log(
        `PostgreSQL primary :${pgNodes[0]!.port()} and standby :${pgNodes[1]!.port()} behind ${pgProxy.address}`,
      );
    } catch (err) {
      await stop();
      throw err;
    }
  }

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
  /** The server's arguments after `-D <dir>` as its postmaster.opts (the binary, each argument quoted) holds them. */
  const serverOpts = (dataDir: string) => {
    const opts = [...readFileSync(path.join(dataDir, 'postmaster.opts'), 'utf8').matchAll(/"([^"]*)"/g)].map(
      (m) => m[1]!,
    );
    const dIndex = opts.indexOf('-D');
    if (dIndex >= 0) opts.splice(dIndex, 2);
    return opts.join(' ');
  };
  /** pg_ctl start of node `index` on its data dir with its own command line; records its pid. */
  // Each node's command line, read once: pg_rewind removes the postmaster.opts of the node it rewinds.
  const nodeOpts = new Map<number, string>();
  const serverOptsOf = (index: number) => {
    if (!nodeOpts.has(index)) nodeOpts.set(index, serverOpts(pgNodes[index]!.dataDir()));
    return nodeOpts.get(index)!;
  };
  const startPgNode = async (index: number) => {
    const node = pgNodes[index]!;
    const dataDir = node.dataDir();
    const logFile = path.join(state('pg', 'rundir'), node.log);
    const logTail = () => {
      try {
        return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
      } catch {
        return '(no log)';
      }
    };
    await pgCtl(['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start', '-o', serverOptsOf(index)]).catch(
      (err: Error) => {
        throw new Error(`${err.message}\n----- ${logFile}\n${logTail()}`);
      },
    );
    setState(node.dir, 'pid', readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]!);
  };
  let pgBinDir: string | undefined;
  /** A PostgreSQL program of the version scripts/infra started (the first node's, read once). */
  const pgBin = (name: string) => {
    pgBinDir ??= path.dirname(
      readFileSync(path.join(state('pg', 'rundir'), 'data/postmaster.opts'), 'utf8').split(' ')[0]!,
    );
    return path.join(pgBinDir, name);
  };
  /** A PostgreSQL program as the owner of the data directories (user postgres when we are root). */
  const pgRun = async (program: string, args: string[]) => {
    const command = [pgBin(program), ...args];
    if (asRoot) {
      const quoted = command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
      return execFileAsync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { timeout: 120_000 });
    }
    return execFileAsync(command[0]!, command.slice(1), { timeout: 120_000 });
  };
  const pgCtl = (args: string[]) => pgRun('pg_ctl', args);

  const needStandby = (what: string) => {
    if (!pgProxy || !links)
      throw new Error(`private infra: ${what} needs startPrivateInfra(log, { pgStandby: true })`);
    if (standby === undefined) throw new Error(`private infra: ${what}: no standby now (a switch used it)`);
    return { proxy: pgProxy, links, from: pgNodes[primary]!, to: pgNodes[standby]! };
  };
  /** Promotes the standby, waits until it commits a write, repoints the address; the roles swap. */
  const promoteAndRepoint = async (
    report: Omit<PgSwitchReport, 'writableAt' | 'repointedAt' | 'unavailableMs'>,
  ) => {
    const { proxy, links: faults, to } = needStandby(report.kind);
    // pg_promote(wait => true) returns once the node has left recovery (or false after 60 s).
    const [promoted] = await pgQuery<{ ok: boolean }>(to.port(), 'select pg_promote(true, 60) as ok');
    if (promoted?.ok !== true) throw new Error(`private infra: pg_promote on :${to.port()} did not finish`);
    // A write: txid_current() assigns a transaction id, which a node in recovery refuses.
    await pgUntil(`:${to.port()} to commit a write`, to.port(), 'select txid_current() > 0 as ok');
    const writableAt = Date.now();
    await faults.repoint(proxy, { host: '127.0.0.1', port: to.port() });
    const repointedAt = Date.now();
    [primary, standby] = [standby!, undefined];
    const done: PgSwitchReport = {
      ...report,
      writableAt,
      repointedAt,
      unavailableMs: repointedAt - report.startedAt,
    };
    log(
      `PostgreSQL ${report.kind} :${report.from} → :${report.to}: writes unavailable from ` +
        `${new Date(report.startedAt).toISOString()} to ${new Date(repointedAt).toISOString()} ` +
        `(${done.unavailableMs} ms; primary down +${report.primaryDownAt - report.startedAt} ms` +
        `${report.caughtUpAt ? `, standby caught up +${report.caughtUpAt - report.startedAt} ms` : ''}` +
        `, writable +${writableAt - report.startedAt} ms, repointed +${done.unavailableMs} ms)`,
    );
    return done;
  };

  /** Whether the stopped old primary was crashed (failover) rather than stopped cleanly. */
  let crashed = false;
  /**
   * The stopped old primary as the synchronous standby of the current primary; returns when it
   * streams as such. `rewind`: it was crashed, so pg_rewind it to the new primary's timeline first.
   */
  const rejoin = async (rewind: boolean): Promise<number> => {
    const oldIndex = primary === 0 ? 1 : 0;
    const old = pgNodes[oldIndex]!;
    const current = pgNodes[primary]!;
    const dataDir = old.dataDir();
    const started = Date.now();
    await pgQuery(
      current.port(),
      `select pg_create_physical_replication_slot('${PG_STANDBY_NAME}') where not exists
         (select 1 from pg_replication_slots where slot_name = '${PG_STANDBY_NAME}')`,
    );
    serverOptsOf(oldIndex);
    if (rewind) {
      // pg_rewind reads the source's timeline from its control file, which a just-promoted node
      // updates only at its next checkpoint (PostgreSQL's pg_rewind docs): one now.
      await pgQuery(current.port(), 'checkpoint');
      // Crash recovery in single-user mode first (pg_rewind does it for a cluster not shut down
      // cleanly), then the blocks changed since the fork copied from the new primary; needs
      // wal_log_hints (scripts/infra sets it with a standby).
      await pgRun('pg_rewind', [
        `--target-pgdata=${dataDir}`,
        `--source-server=host=127.0.0.1 port=${current.port()} user=postgres dbname=postgres`,
      ]);
    }
    // A standby of the current primary, following its new timeline (recovery_target_timeline's
    // default, latest). The last setting of a name in the file wins; synchronous_standby_names
    // is emptied so that, promoted alone later, it does not wait for a standby that is not there.
    const { uid, gid } = statSync(dataDir);
    const signal = path.join(dataDir, 'standby.signal');
    writeFileSync(signal, '');
    chownSync(signal, uid, gid);
    appendFileSync(
      path.join(dataDir, 'postgresql.auto.conf'),
      [
        `primary_conninfo = 'host=127.0.0.1 port=${current.port()} user=postgres application_name=${PG_STANDBY_NAME}'`,
        `primary_slot_name = '${PG_STANDBY_NAME}'`,
        `synchronous_standby_names = ''`,
        '',
      ].join('\n'),
    );
    await startPgNode(oldIndex);
    // Streaming first, then synchronous: named before it streams, the primary's commits would
    // wait for it.
    await pgUntil(
      `:${old.port()} to stream from :${current.port()}`,
      current.port(),
      `select count(*) = 1 as ok from pg_stat_replication
        where application_name = '${PG_STANDBY_NAME}' and state = 'streaming'`,
    );
    await pgQuery(current.port(), `alter system set synchronous_standby_names = '${PG_STANDBY_NAME}'`);
    await pgQuery(current.port(), 'select pg_reload_conf()');
    await pgUntil(
      `:${old.port()} to stream as the synchronous standby`,
      current.port(),
      `select count(*) = 1 as ok from pg_stat_replication
        where application_name = '${PG_STANDBY_NAME}' and state = 'streaming' and sync_state = 'sync'`,
    );
    standby = oldIndex;
    crashed = false;
    log(
      `PostgreSQL :${old.port()} rejoined as the synchronous standby of :${current.port()}` +
        `${rewind ? ' (rewound)' : ''} in ${Date.now() - started} ms`,
    );
    return Date.now();
  };

  return {
    databaseUrl,
    redisUrl: exported.REDIS_URL!,
    kafkaBrokers: kafkaBrokers.join(','),
    kafkaNodes,
    ...(options.tls
      ? {
          tls: {
            pgCaFile: state('pg', 'ca_file'),
            redisUrl: state('redis', 'tls_url'),
            redisCaFile: state('redis', 'ca_file'),
          },
        }
      : {}),
    ...(options.kafkaSaslSsl
      ? {
          kafkaSaslSsl: {
            brokers: state('kafka', 'secure_url'),
            caFile: state('kafka', 'ca_file'),
            username: state('kafka', 'sasl_user'),
            password: state('kafka', 'sasl_password'),
          },
        }
      : {}),
    kafkaProxiedListeners: options.kafkaProxyPorts
      ? Array.from(
          { length: kafkaNodes },
          (_, i) => `127.0.0.1:${state('kafka', `node-${i + 1}/proxied_port`)}`,
        )
      : [],

    async restartPostgres(downMs) {
      // The current primary (the first node unless a switch promoted the standby).
      const dataDir = pgNodes[primary]!.dataDir();
      await pgCtl(['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      await sleep(downMs);
      await startPgNode(primary);
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

    postgresNodes() {
      return pgNodes.map((node, index) => ({
        port: node.port(),
        role: index === primary ? 'primary' : index === standby ? 'standby' : 'stopped',
      }));
    },

    async switchoverPostgres(opts = {}) {
      const { from, to } = needStandby('switchoverPostgres');
      const startedAt = Date.now();
      // Fast mode: sessions are ended, the shutdown checkpoint is written, and the WAL senders send
      // everything up to it to the standby before the server exits.
      await pgCtl(['-D', from.dataDir(), '-m', 'fast', '-w', '-t', '60', 'stop']);
      const primaryDownAt = Date.now();
      const { stdout } = await execFileAsync(pgBin('pg_controldata'), ['-D', from.dataDir()], {
        timeout: 30_000,
        env: { ...process.env, LC_ALL: 'C' },
      });
      const checkpoint = /^Latest checkpoint location:\s+(\S+)$/m.exec(stdout)?.[1];
      if (!checkpoint) throw new Error(`private infra: no checkpoint location in pg_controldata:\n${stdout}`);
      // Replayed past the old primary's last record: nothing it wrote is missing on the standby.
      await pgUntil(
        `the standby :${to.port()} to replay the shutdown checkpoint ${checkpoint}`,
        to.port(),
        `select pg_last_wal_replay_lsn() > '${checkpoint}'::pg_lsn as ok`,
      );
      const caughtUpAt = Date.now();
      const report = await promoteAndRepoint({
        kind: 'switchover',
        startedAt,
        primaryDownAt,
        caughtUpAt,
        from: from.port(),
        to: to.port(),
      });
      if (opts.rejoin ?? true) report.rejoinedAt = await rejoin(false);
      return report;
    },

    async failoverPostgres(opts = {}) {
      const { from, to } = needStandby('failoverPostgres');
      const startedAt = Date.now();
      await pgCtl(['-D', from.dataDir(), '-m', 'immediate', '-w', '-t', '60', 'stop']);
      const primaryDownAt = Date.now();
      const report = await promoteAndRepoint({
        kind: 'failover',
        startedAt,
        primaryDownAt,
        from: from.port(),
        to: to.port(),
      });
      crashed = true;
      if (opts.rejoin) report.rejoinedAt = await rejoin(true);
      return report;
    },

    async rejoinOldPrimary() {
      if (!pgProxy || standby !== undefined) {
        throw new Error('private infra: rejoinOldPrimary: there is a standby already (or no pgStandby)');
      }
      await rejoin(crashed);
    },

    stop,
  };
}
