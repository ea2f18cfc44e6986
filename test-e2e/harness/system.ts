import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeGrpcClients, type GrpcTls } from '@qr-payout/platform/grpc';
import { type DnsResponder, startDnsResponder } from '@qr-payout/test-kit/dns-responder';
import { testInfra } from '@qr-payout/test-kit/infra';
import { createTestCa } from '@qr-payout/test-kit/test-ca';
import {
  type AdminClient,
  createAdminClient,
  createTenantViaApi,
  createTenantViaCli,
  type TestTenant,
} from './admin';
import { createRunDatabase, type SchemaOwner } from './database';
import { freePort, freePorts } from './ports';
import { defaultLauncher, type Launcher, type ManagedProcess, spawnProcess } from './processes';
import { grpcServing, httpOk, waitUntilReady } from './readiness';

export type ServiceName = 'decoder' | 'fx' | 'payout' | 'webhook';
/** A deployable the harness can run several replicas of (docs/testing.md "Replicas"). */
export type ComponentName = ServiceName | 'gateway';

const SERVICE_NAMES: readonly ServiceName[] = ['decoder', 'fx', 'payout', 'webhook'];
/** Start order (all are started before any is waited for): the services, then the gateways. */
const COMPONENTS: readonly ComponentName[] = [...SERVICE_NAMES, 'gateway'];

export interface SystemOptions {
  /** Default warn: quiet children, as the bench needs. */
  logLevel?: string;
  /** Export traces of every process over OTLP/HTTP to this URL (e.g. http://127.0.0.1:4318/v1/traces). */
  otlpTracesUrl?: string;
  /** Extra env for every gateway replica (e.g. SCHEMES_CACHE_TTL_MS); not for startGateway's. */
  gatewayEnv?: NodeJS.ProcessEnv;
  /** Per readiness wait; children compile TypeScript at start, so give them time on 2 cores. */
  readyTimeoutMs?: number;
  /** Extra env for the partner simulator (e.g. PARTNER_SIM_SLOW_SETTLE_MS, PARTNER_SIM_FAULTS). */
  partnerSimEnv?: NodeJS.ProcessEnv;
  /**
   * Extra env per service (e.g. payout's POLL_INTERVAL_MS), applied over the harness's own and
   * kept for processes started later with startService.
   */
  serviceEnv?: Partial<Record<ServiceName, NodeJS.ProcessEnv>>;
  /**
   * PostgreSQL, Redis and Kafka to run on instead of DATABASE_URL, REDIS_URL and KAFKA_BROKERS
   * (the fault campaign's private set, which it restarts).
   */
  infra?: { databaseUrl: string; redisUrl: string; kafkaBrokers: string };
  /**
   * Processes per component, 1 each by default (docs/testing.md "Replicas"). A service with several
   * binds one port on its own loopback address each (127.0.0.2, 127.0.0.3, …), and its callers
   * reach them through one DNS name the harness serves; several gateways likewise each have an
   * address of their own. With 1, the component runs on 127.0.0.1 and is called by address, as
   * ever.
   */
  replicas?: Partial<Record<ComponentName, number>>;
  /**
   * Extra env for one replica (index from 0), over everything but its address and ports (HOST,
   * GRPC_PORT, PORT, ADMIN_PORT, METRICS_PORT); asked again by restartReplica. E.g. a DATABASE_URL
   * through a fault proxy for payout replica 1 only.
   */
  replicaEnv?: (name: ComponentName, index: number) => NodeJS.ProcessEnv | undefined;
  /** How each process is started: from source by default; the image test runs the built image. */
  launcher?: Launcher;
  /**
   * A database role per service that owns only its schema (docs/operators.md "One database role
   * per service"), instead of the server's superuser for all.
   */
  databaseRoles?: boolean;
  /**
   * mTLS on every internal gRPC connection (docs/operators.md "Mutual TLS between services"), with
   * a CA of the run's own and a certificate per component: on unless false.
   */
  grpcTls?: boolean;
}

export interface GatewayHandle {
  url: string;
  adminUrl: string;
  /** Its Prometheus endpoint (METRICS_PORT), e.g. http://127.0.0.1:20001/metrics. */
  metricsUrl: string;
  process: ManagedProcess;
}

export interface ServiceHandle {
  url: string;
  /** Its cleartext grpc.health.v1 port (GRPC_HEALTH_PORT), as a probe dials it. */
  healthUrl: string;
  /** Its Prometheus endpoint (METRICS_PORT). */
  metricsUrl: string;
  process: ManagedProcess;
}

/** One replica of a component: where it listens and its current process. */
export interface Replica {
  name: ComponentName;
  index: number;
  /** Its loopback address: 127.0.0.1 for a component of one replica, else 127.0.0.2, 127.0.0.3, … */
  host: string;
  /** Its own address: the gRPC base URL of a service, the public URL of a gateway. */
  url: string;
  /** A gateway's admin API. */
  adminUrl?: string;
  /** A service's cleartext grpc.health.v1 port (GRPC_HEALTH_PORT). */
  healthUrl?: string;
  /** Its Prometheus endpoint (METRICS_PORT, on its own address). */
  metricsUrl: string;
  /** The process now serving it (the latest restartReplica's). */
  process: ManagedProcess;
}

export interface ProcessExit {
  name: string;
  /** Exit code, or the signal name when the process was killed. */
  exit: number | string;
}

export interface System {
  /** The first gateway (= gatewayUrls[0]); partner callbacks go to it. */
  gatewayUrl: string;
  /** Every gateway replica's public URL (docs/testing.md "Replicas"). */
  gatewayUrls: string[];
  /**
   * The partner simulator (docs/architecture.md "Rails and partners"): dynamic Pix charges
   * (`POST /pix/v2/cob`) and their locations.
   */
  partnerSimUrl: string;
  /** The first gateway's admin API. */
  adminUrl: string;
  adminToken: string;
  databaseUrl: string;
  /** With `databaseRoles`: each schema-owning service's connection string, as its own role. */
  serviceDatabaseUrls?: Record<SchemaOwner, string>;
  /** Each service's first replica, by its own address (the test runner can call it directly). */
  serviceUrls: Record<ServiceName, string>;
  /**
   * What the callers (gateway, payout → fx) are given: `serviceUrls` for a service of one replica,
   * `dns://<responder>/<name>:<port>` for several (read under GRPC_NODE_USE_ALTERNATIVE_RESOLVER=true).
   */
  serviceTargets: Record<ServiceName, string>;
  /** The DNS responder of each service run with several replicas; its addresses may be changed. */
  dns: Partial<Record<ServiceName, DnsResponder>>;
  /** Each first process's /metrics (docs/runbooks.md "Metrics"). */
  metricsUrls: Record<ServiceName | 'gateway', string>;
  /**
   * With mTLS (the default), a client certificate of the run's CA for the test's own gRPC clients
   * (createGrpcClient's `tls`), and the CA to make others from; undefined when `grpcTls` is false.
   */
  grpcTls: GrpcTls | undefined;
  /**
   * A certificate of the run's CA for a server a test stands up in a service's place (its names
   * and addresses); undefined when `grpcTls` is false.
   */
  issueTls(name: string, sans: { dns?: readonly string[]; ip?: readonly string[] }): GrpcTls | undefined;
  processes: ManagedProcess[];
  logDir: string;
  admin: AdminClient;
  /** A tenant made through the admin API (rate limit 0 = the gateway's default). */
  createTenant(name: string, rateLimitPerMinute?: number): Promise<TestTenant>;
  /** A tenant made by running `payoutctl tenant create` as its own process. */
  createTenantWithCli(name: string, rateLimitPerMinute?: number): Promise<TestTenant>;
  /**
   * Another decoder/fx/payout/webhook process on the same database (e.g. one a test may kill); a
   * GRPC_PORT in `extraEnv` puts it on that port (e.g. one a gateway already points at).
   */
  startService(name: ServiceName, extraEnv?: NodeJS.ProcessEnv): Promise<ServiceHandle>;
  /**
   * Another partner simulator on the first one's port and state file (kill the old one first): it
   * knows every payout the first accepted.
   */
  restartPartnerSim(): Promise<ManagedProcess>;
  /**
   * Another gateway on the same database; `extraEnv` overrides anything (e.g. DECODER_URL); `ports`
   * puts it on given ports (e.g. those of a gateway that was killed).
   */
  startGateway(
    extraEnv?: NodeJS.ProcessEnv,
    ports?: { port: number; adminPort: number },
  ): Promise<GatewayHandle>;
  /** The replicas of a component, index order, each with its current process. */
  replicas(name: ComponentName): Replica[];
  /**
   * Starts replica `index` of `name` again on its address and ports (stopping its process first
   * when it still runs: SIGTERM, SIGKILL after 15 s) and waits until it is ready; `extraEnv` over
   * its env for this start only (its address and ports excepted).
   */
  restartReplica(name: ComponentName, index: number, extraEnv?: NodeJS.ProcessEnv): Promise<Replica>;
  /** Stops every process (SIGTERM, SIGKILL after 15 s) and drops the database; safe to call twice. */
  stop(): Promise<ProcessExit[]>;
}

/**
 * Only what a child needs from our environment; nothing of the test runner's leaks into it.
 * GRPC_TRACE and GRPC_VERBOSITY pass so grpc-js's own trace can be read in each process's log
 * (docs/testing.md "When a webhook is missing").
 */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'GRPC_TRACE', 'GRPC_VERBOSITY']) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return env;
}

function telemetryEnv(serviceName: string, otlpTracesUrl: string | undefined): NodeJS.ProcessEnv {
  if (!otlpTracesUrl) return { OTEL_SDK_DISABLED: 'true', OTEL_SERVICE_NAME: serviceName };
  return {
    OTEL_SDK_DISABLED: 'false',
    OTEL_SERVICE_NAME: serviceName,
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpTracesUrl,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    // Export within a fraction of a second, so the test does not wait for the default 5 s batch.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_TRACES_SAMPLER: 'always_on',
  };
}

/** The highest replica count of a component: its addresses are 127.0.0.2 … 127.0.0.(count+1). */
const MAX_REPLICAS = 200;

/** Replica i of a component of `count`: 127.0.0.1 alone, else 127.0.0.(2+i) (docs/testing.md "Replicas"). */
function replicaHost(count: number, index: number): string {
  return count === 1 ? '127.0.0.1' : `127.0.0.${2 + index}`;
}

/** The name a replicated service's callers resolve (a headless Service's, in the chart). */
function dnsName(name: ServiceName): string {
  return `${name}.replicas.e2e`;
}

/** The ports every replica of a component listens on (each on its own address). */
interface ReplicaPorts {
  /** GRPC_PORT of a service, PORT of a gateway. */
  port: number;
  /** A gateway's ADMIN_PORT, a service's GRPC_HEALTH_PORT. */
  adminPort: number;
  metricsPort: number;
}

interface ReplicaSlot {
  name: ComponentName;
  index: number;
  host: string;
  ports: ReplicaPorts;
  process?: ManagedProcess;
}

/**
 * The whole system, every deployable as its own process, against the PostgreSQL, Redis and Kafka
 * of DATABASE_URL, REDIS_URL and KAFKA_BROKERS, on a fresh database that stop() drops.
 */
export async function startSystem(opts: SystemOptions = {}): Promise<System> {
  const serverDatabaseUrl = opts.infra?.databaseUrl ?? testInfra.databaseUrl;
  const redisUrl = opts.infra?.redisUrl ?? testInfra.redisUrl;
  const kafkaBrokers = opts.infra?.kafkaBrokers ?? testInfra.kafkaBrokers.join(',');
  const readyTimeoutMs = opts.readyTimeoutMs ?? 90_000;
  const counts = replicaCounts(opts.replicas);
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-e2e-'));
  // The run's CA (docs/operators.md "Mutual TLS between services"); certificates are issued per
  // component once its addresses are known.
  const ca = opts.grpcTls === false ? undefined : createTestCa('qr-payout e2e CA', path.join(logDir, 'tls'));
  const tlsEnv: Partial<Record<ComponentName, NodeJS.ProcessEnv>> = {};
  const issueTls = (name: ComponentName, hosts: readonly string[]) => {
    if (!ca) return;
    const files = ca.issue(name, {
      dns: [...(name === 'gateway' ? [] : [dnsName(name)]), 'localhost'],
      ip: [...new Set(['127.0.0.1', ...hosts])],
    });
    tlsEnv[name] = {
      GRPC_TLS_CERT_FILE: files.certFile,
      GRPC_TLS_KEY_FILE: files.keyFile,
      GRPC_TLS_CA_FILE: files.caFile,
    };
  };
  const adminToken = randomBytes(24).toString('base64url');
  // Partners sign their callbacks with it; the gateway verifies them (partner-sim README).
  const partnerCallbackSecret = randomBytes(24).toString('base64url');
  const database = await createRunDatabase(serverDatabaseUrl, { serviceRoles: opts.databaseRoles });
  // With roles, each service connects as its own (the decoder has no database at all).
  const databaseEnv = (name: ComponentName): NodeJS.ProcessEnv => {
    if (!database.serviceUrls) return {};
    return { DATABASE_URL: name === 'decoder' ? undefined : database.serviceUrls[name] };
  };
  const processes: ManagedProcess[] = [];
  const launch = opts.launcher ?? defaultLauncher();
  const dns: Partial<Record<ServiceName, DnsResponder>> = {};
  let spawned = 0;

  const sharedEnv: NodeJS.ProcessEnv = {
    ...baseEnv(),
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DB_POOL_MAX: '4',
    REDIS_URL: redisUrl,
    // Per-run Redis keys: the per-address auth-failure budget of 127.0.0.1 is then not shared with
    // other runs or other suites on the same Redis (keys expire on their own after the window).
    RATE_LIMIT_KEY_PREFIX: `e2e:${randomBytes(4).toString('hex')}:`,
    KAFKA_BROKERS: kafkaBrokers,
    LOG_LEVEL: opts.logLevel ?? 'warn',
    MIGRATE_ON_START: 'true',
    PAYOUT_ADMIN_TOKEN: adminToken,
    WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
  // Per-service additions, filled once the partner simulator's address is known.
  const serviceEnv: Partial<Record<ServiceName, NodeJS.ProcessEnv>> = {};
  // What the gateways are given for each service (plain addresses, or a DNS name for replicas).
  const serviceTargets = {} as Record<ServiceName, string>;

  const launchService = async (name: ServiceName, extraEnv: NodeJS.ProcessEnv = {}) => {
    const port = extraEnv.GRPC_PORT ? Number(extraEnv.GRPC_PORT) : await freePort();
    const metricsPort = extraEnv.METRICS_PORT ? Number(extraEnv.METRICS_PORT) : await freePort();
    const healthPort = extraEnv.GRPC_HEALTH_PORT ? Number(extraEnv.GRPC_HEALTH_PORT) : await freePort();
    const env: NodeJS.ProcessEnv = {
      ...sharedEnv,
      ...databaseEnv(name),
      ...telemetryEnv(name, opts.otlpTracesUrl),
      ...tlsEnv[name],
      ...serviceEnv[name],
      ...opts.serviceEnv?.[name],
      GRPC_PORT: String(port),
      GRPC_HEALTH_PORT: String(healthPort),
      METRICS_PORT: String(metricsPort),
      ...extraEnv,
    };
    const proc = spawnProcess(`${name}-${++spawned}`, launch(name, env), logDir);
    processes.push(proc);
    const url = `http://${env.HOST}:${port}`;
    // Ready as the kubelet sees it: Health/Check on the cleartext health port.
    const healthUrl = `http://${env.HOST}:${healthPort}`;
    return {
      url,
      healthUrl,
      metricsUrl: `http://${env.HOST}:${metricsPort}/metrics`,
      process: proc,
      ready: () => waitUntilReady(proc, 'gRPC SERVING', grpcServing(healthUrl), readyTimeoutMs),
    };
  };

  // The callers' env for the services: a dns:// target is read by grpc-js's c-ares resolver only
  // (services/platform/src/grpc/client.ts).
  const callerEnv = (targets: string[]): NodeJS.ProcessEnv =>
    targets.some((target) => target.startsWith('dns:')) ? { GRPC_NODE_USE_ALTERNATIVE_RESOLVER: 'true' } : {};

  const launchGateway = async (
    extraEnv: NodeJS.ProcessEnv = {},
    ports?: { port: number; adminPort: number; metricsPort?: number },
  ) => {
    const { port, adminPort } = ports ?? { port: await freePort(), adminPort: await freePort() };
    const metricsPort = extraEnv.METRICS_PORT
      ? Number(extraEnv.METRICS_PORT)
      : (ports?.metricsPort ?? (await freePort()));
    const host = extraEnv.HOST ?? sharedEnv.HOST;
    const proc = spawnProcess(
      `gateway-${++spawned}`,
      launch('gateway', {
        ...sharedEnv,
        ...databaseEnv('gateway'),
        ...telemetryEnv('gateway', opts.otlpTracesUrl),
        ...tlsEnv.gateway,
        PORT: String(port),
        ADMIN_PORT: String(adminPort),
        DECODER_URL: serviceTargets.decoder,
        FX_URL: serviceTargets.fx,
        PAYOUT_URL: serviceTargets.payout,
        WEBHOOK_URL: serviceTargets.webhook,
        ...callerEnv(Object.values(serviceTargets)),
        PUBLIC_DOCS_URL: `http://${host}:${port}/docs`,
        PARTNER_CALLBACK_SECRET: partnerCallbackSecret,
        METRICS_PORT: String(metricsPort),
        ...extraEnv,
      }),
      logDir,
    );
    processes.push(proc);
    const url = `http://${host}:${port}`;
    const handle: GatewayHandle = {
      url,
      adminUrl: `http://${host}:${adminPort}`,
      metricsUrl: `http://${host}:${metricsPort}/metrics`,
      process: proc,
    };
    return {
      handle,
      ready: () => waitUntilReady(proc, 'GET /readyz 200', httpOk(`${url}/readyz`), readyTimeoutMs),
    };
  };

  // The partner simulator first: the decoder fetches dynamic Pix payloads from it. Its payouts are
  // journaled in the run's directory, so one restarted on the same port keeps them.
  const partnerSimStateFile = path.join(logDir, 'partner-sim-payouts.jsonl');
  let partnerSimPort: number | undefined;
  const launchPartnerSim = async () => {
    partnerSimPort ??= await freePort();
    const port = partnerSimPort;
    const proc = spawnProcess(
      `partner-sim-${++spawned}`,
      launch('partner-sim', {
        ...sharedEnv,
        ...telemetryEnv('partner-sim', opts.otlpTracesUrl),
        PORT: String(port),
        PARTNER_SIM_CALLBACK_SECRET: partnerCallbackSecret,
        PARTNER_SIM_STATE_FILE: partnerSimStateFile,
        ...opts.partnerSimEnv,
      }),
      logDir,
    );
    processes.push(proc);
    const host = `127.0.0.1:${port}`;
    const url = `http://${host}`;
    return {
      url,
      host,
      process: proc,
      ready: () => waitUntilReady(proc, 'GET /healthz 200', httpOk(`${url}/healthz`), readyTimeoutMs),
    };
  };

  // Every replica's address and ports (filled below, before anything but the simulator starts).
  const slots = {} as Record<ComponentName, ReplicaSlot[]>;

  /** Starts replica `slot` (not waiting for it): its address and ports over everything else. */
  const launchReplica = async (slot: ReplicaSlot, extraEnv: NodeJS.ProcessEnv = {}) => {
    const own = { ...opts.replicaEnv?.(slot.name, slot.index), ...extraEnv, HOST: slot.host };
    const { port, adminPort, metricsPort } = slot.ports;
    if (slot.name === 'gateway') {
      const launched = await launchGateway(
        {
          ...opts.gatewayEnv,
          ...own,
          PORT: String(port),
          ADMIN_PORT: String(adminPort),
          METRICS_PORT: String(metricsPort),
        },
        slot.ports,
      );
      slot.process = launched.handle.process;
      return launched.ready;
    }
    const launched = await launchService(slot.name, {
      ...own,
      GRPC_PORT: String(port),
      GRPC_HEALTH_PORT: String(adminPort),
      METRICS_PORT: String(metricsPort),
    });
    slot.process = launched.process;
    return launched.ready;
  };

  const replicaView = (slot: ReplicaSlot): Replica => {
    const base = `http://${slot.host}`;
    return {
      name: slot.name,
      index: slot.index,
      host: slot.host,
      url: `${base}:${slot.ports.port}`,
      ...(slot.name === 'gateway'
        ? { adminUrl: `${base}:${slot.ports.adminPort}` }
        : { healthUrl: `${base}:${slot.ports.adminPort}` }),
      metricsUrl: `${base}:${slot.ports.metricsPort}/metrics`,
      process: slot.process!,
    };
  };

  const stop = async (keepLogs = Boolean(process.env.E2E_KEEP_LOGS)): Promise<ProcessExit[]> => {
    await closeGrpcClients();
    const exits = await Promise.all(
      processes.map(async (proc) => ({ name: proc.name, exit: await proc.stop() })),
    );
    await Promise.all(Object.values(dns).map((responder) => responder.close()));
    await database.drop();
    if (!keepLogs) rmSync(logDir, { recursive: true, force: true });
    return exits;
  };

  try {
    const partnerSim = await launchPartnerSim();
    // Its dynamic Pix locations are plain http on loopback: allow-listed for the decoder only.
    serviceEnv.decoder = { PIX_LOCATION_HTTP_HOSTS: partnerSim.host };
    // Every replica's address and ports are chosen before any starts: payout needs the first
    // gateway's port, and the callers each service's target.
    for (const name of COMPONENTS) {
      const hosts = Array.from({ length: counts[name] }, (_, i) => replicaHost(counts[name], i));
      const [port, adminPort, metricsPort] = await freePorts(3, hosts);
      const ports: ReplicaPorts = { port: port!, adminPort: adminPort!, metricsPort: metricsPort! };
      slots[name] = hosts.map((host, index) => ({ name, index, host, ports }));
      issueTls(name, hosts);
    }
    // A service of one replica is called by its address, as ever; one of several through a name
    // whose A records are its replicas' addresses (docs/testing.md "Replicas").
    for (const name of SERVICE_NAMES) {
      const replicas = slots[name];
      const { port } = replicas[0]!.ports;
      if (replicas.length === 1) {
        serviceTargets[name] = `http://127.0.0.1:${port}`;
        continue;
      }
      const responder = await startDnsResponder({
        name: dnsName(name),
        addresses: replicas.map((r) => r.host),
      });
      dns[name] = responder;
      serviceTargets[name] = `dns://${responder.address}/${dnsName(name)}:${port}`;
    }
    const gateways = slots.gateway.map(replicaUrl);
    // Payout submits to the simulator and tells it to call back the first gateway.
    serviceEnv.payout = {
      PARTNER_BASE_URL: partnerSim.url,
      PARTNER_CALLBACK_BASE_URL: gateways[0]!,
      // payout confirms quotes at execute, so it calls fx.
      FX_URL: serviceTargets.fx,
      ...callerEnv([serviceTargets.fx]),
    };
    // The webhook dispatcher reads the shared topic in a group of this run's own (it skips the
    // events of other runs' tenants), and runs the retry schedule in seconds. Every replica runs
    // every role (API, dispatcher, worker) in that one group.
    serviceEnv.webhook = {
      WEBHOOK_DISPATCHER_GROUP: `e2e-webhook-${randomBytes(4).toString('hex')}`,
      WEBHOOK_RETRY_SCALE: '0.0001',
      WEBHOOK_POLL_MS: '100',
      // A killed dispatcher's partitions move to its replacement after 6 s, not 30.
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      // A killed worker's deliveries are taken again after 3 s (an attempt lasts at most 2 s).
      WEBHOOK_LEASE_MS: '3000',
      WEBHOOK_TIMEOUT_MS: '2000',
    };
    const readies: Array<() => Promise<void>> = [partnerSim.ready];
    for (const name of COMPONENTS) {
      for (const slot of slots[name]) readies.push(await launchReplica(slot));
    }
    await Promise.all(readies.map((ready) => ready()));
    const first = (name: ComponentName) => replicaView(slots[name][0]!);
    // The test's own gRPC clients present a certificate of the run's CA as well.
    const runnerTls = ca?.issue('test-runner', {});
    const firstGateway = first('gateway');
    const adminUrl = firstGateway.adminUrl!;
    const admin = createAdminClient(adminUrl, adminToken);
    const byService = <T>(pick: (replica: Replica) => T) =>
      Object.fromEntries(SERVICE_NAMES.map((name) => [name, pick(first(name))])) as Record<ServiceName, T>;

    return {
      gatewayUrl: firstGateway.url,
      gatewayUrls: gateways,
      partnerSimUrl: partnerSim.url,
      adminUrl,
      adminToken,
      databaseUrl: database.url,
      serviceDatabaseUrls: database.serviceUrls,
      serviceUrls: byService((replica) => replica.url),
      serviceTargets: { ...serviceTargets },
      dns,
      metricsUrls: { ...byService((replica) => replica.metricsUrl), gateway: firstGateway.metricsUrl },
      grpcTls: runnerTls,
      issueTls: (name, sans) => ca?.issue(name, sans),
      processes,
      logDir,
      admin,
      createTenant: (name, rateLimitPerMinute) => createTenantViaApi(admin, name, rateLimitPerMinute),
      createTenantWithCli: (name, rateLimitPerMinute) =>
        createTenantViaCli(adminUrl, adminToken, name, rateLimitPerMinute),
      async startService(name, extraEnv) {
        const launched = await launchService(name, extraEnv);
        await launched.ready();
        return {
          url: launched.url,
          healthUrl: launched.healthUrl,
          metricsUrl: launched.metricsUrl,
          process: launched.process,
        };
      },
      async restartPartnerSim() {
        const launched = await launchPartnerSim();
        await launched.ready();
        return launched.process;
      },
      async startGateway(extraEnv, ports) {
        const launched = await launchGateway(extraEnv, ports);
        await launched.ready();
        return launched.handle;
      },
      replicas: (name) => slots[name].map(replicaView),
      async restartReplica(name, index, extraEnv) {
        const slot = slots[name][index];
        if (!slot) throw new Error(`${name} has no replica ${index} (${slots[name].length} run)`);
        await slot.process?.stop();
        const ready = await launchReplica(slot, extraEnv);
        await ready();
        return replicaView(slot);
      },
      stop: () => stop(),
    };
  } catch (err) {
    await stop(true).catch(() => {});
    if (err instanceof Error) err.message += `\n(child logs kept in ${logDir})`;
    throw err;
  }
}

function replicaUrl(slot: ReplicaSlot): string {
  return `http://${slot.host}:${slot.ports.port}`;
}

/** Each component's replica count, 1 unless given; a whole number from 1 to MAX_REPLICAS. */
function replicaCounts(given: SystemOptions['replicas'] = {}): Record<ComponentName, number> {
  const counts = {} as Record<ComponentName, number>;
  for (const name of COMPONENTS) {
    const count = given[name] ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > MAX_REPLICAS) {
      throw new Error(`replicas.${name} must be a whole number from 1 to ${MAX_REPLICAS} (got ${count})`);
    }
    counts[name] = count;
  }
  return counts;
}
