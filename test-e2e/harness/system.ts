import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeGrpcClients } from '@qr-payout/platform/grpc';
import { testInfra } from '@qr-payout/test-kit/infra';
import {
  type AdminClient,
  createAdminClient,
  createTenantViaApi,
  createTenantViaCli,
  type TestTenant,
} from './admin';
import { createRunDatabase } from './database';
import { freePort } from './ports';
import { type ManagedProcess, spawnTsProcess } from './processes';
import { grpcServing, httpOk, waitUntilReady } from './readiness';

export type ServiceName = 'decoder' | 'fx' | 'payout' | 'webhook';

const SERVICE_SCRIPTS: Record<ServiceName, string> = {
  decoder: 'services/decoder/src/main.ts',
  fx: 'services/fx/src/main.ts',
  payout: 'services/payout/src/main.ts',
  webhook: 'services/webhook/src/main.ts',
};
const GATEWAY_SCRIPT = 'gateway/src/main.ts';
const PARTNER_SIM_SCRIPT = 'partner-sim/src/main.ts';

export interface SystemOptions {
  /** Default warn: quiet children, as the bench needs. */
  logLevel?: string;
  /** Export traces of every process over OTLP/HTTP to this URL (e.g. http://127.0.0.1:4318/v1/traces). */
  otlpTracesUrl?: string;
  /** Extra env for the main gateway (e.g. SCHEMES_CACHE_TTL_MS). */
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
  /** Its Prometheus endpoint (METRICS_PORT). */
  metricsUrl: string;
  process: ManagedProcess;
}

export interface ProcessExit {
  name: string;
  /** Exit code, or the signal name when the process was killed. */
  exit: number | string;
}

export interface System {
  gatewayUrl: string;
  /**
   * The partner simulator (docs/architecture.md "Rails and partners"): dynamic Pix charges
   * (`POST /pix/v2/cob`) and their locations.
   */
  partnerSimUrl: string;
  adminUrl: string;
  adminToken: string;
  databaseUrl: string;
  serviceUrls: Record<ServiceName, string>;
  /** Each first process's /metrics (docs/runbooks.md "Metrics"). */
  metricsUrls: Record<ServiceName | 'gateway', string>;
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
  /** Stops every process (SIGTERM, SIGKILL after 15 s) and drops the database; safe to call twice. */
  stop(): Promise<ProcessExit[]>;
}

/** Only what a child needs from our environment; nothing of the test runner's leaks into it. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
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

/**
 * The whole system, every deployable as its own process, against the PostgreSQL, Redis and Kafka
 * of DATABASE_URL, REDIS_URL and KAFKA_BROKERS, on a fresh database that stop() drops.
 */
export async function startSystem(opts: SystemOptions = {}): Promise<System> {
  const serverDatabaseUrl = opts.infra?.databaseUrl ?? testInfra.databaseUrl;
  const redisUrl = opts.infra?.redisUrl ?? testInfra.redisUrl;
  const kafkaBrokers = opts.infra?.kafkaBrokers ?? testInfra.kafkaBrokers.join(',');
  const readyTimeoutMs = opts.readyTimeoutMs ?? 90_000;
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-e2e-'));
  const adminToken = randomBytes(24).toString('base64url');
  // Partners sign their callbacks with it; the gateway verifies them (partner-sim README).
  const partnerCallbackSecret = randomBytes(24).toString('base64url');
  const database = await createRunDatabase(serverDatabaseUrl);
  const processes: ManagedProcess[] = [];
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

  const launchService = async (name: ServiceName, extraEnv: NodeJS.ProcessEnv = {}) => {
    const port = extraEnv.GRPC_PORT ? Number(extraEnv.GRPC_PORT) : await freePort();
    const metricsPort = extraEnv.METRICS_PORT ? Number(extraEnv.METRICS_PORT) : await freePort();
    const proc = spawnTsProcess({
      name: `${name}-${++spawned}`,
      script: SERVICE_SCRIPTS[name],
      env: {
        ...sharedEnv,
        ...telemetryEnv(name, opts.otlpTracesUrl),
        ...serviceEnv[name],
        ...opts.serviceEnv?.[name],
        GRPC_PORT: String(port),
        METRICS_PORT: String(metricsPort),
        ...extraEnv,
      },
      logDir,
    });
    processes.push(proc);
    const url = `http://127.0.0.1:${port}`;
    return {
      url,
      metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
      process: proc,
      ready: () => waitUntilReady(proc, 'gRPC SERVING', grpcServing(url), readyTimeoutMs),
    };
  };

  const launchGateway = async (
    serviceUrls: Record<ServiceName, string>,
    extraEnv: NodeJS.ProcessEnv = {},
    ports?: { port: number; adminPort: number },
  ) => {
    const { port, adminPort } = ports ?? { port: await freePort(), adminPort: await freePort() };
    const metricsPort = extraEnv.METRICS_PORT ? Number(extraEnv.METRICS_PORT) : await freePort();
    const proc = spawnTsProcess({
      name: `gateway-${++spawned}`,
      script: GATEWAY_SCRIPT,
      env: {
        ...sharedEnv,
        ...telemetryEnv('gateway', opts.otlpTracesUrl),
        PORT: String(port),
        ADMIN_PORT: String(adminPort),
        DECODER_URL: serviceUrls.decoder,
        FX_URL: serviceUrls.fx,
        PAYOUT_URL: serviceUrls.payout,
        WEBHOOK_URL: serviceUrls.webhook,
        PUBLIC_DOCS_URL: `http://127.0.0.1:${port}/docs`,
        PARTNER_CALLBACK_SECRET: partnerCallbackSecret,
        METRICS_PORT: String(metricsPort),
        ...extraEnv,
      },
      logDir,
    });
    processes.push(proc);
    const url = `http://127.0.0.1:${port}`;
    const handle: GatewayHandle = {
      url,
      adminUrl: `http://127.0.0.1:${adminPort}`,
      metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
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
    const proc = spawnTsProcess({
      name: `partner-sim-${++spawned}`,
      script: PARTNER_SIM_SCRIPT,
      env: {
        ...sharedEnv,
        ...telemetryEnv('partner-sim', opts.otlpTracesUrl),
        PORT: String(port),
        PARTNER_SIM_CALLBACK_SECRET: partnerCallbackSecret,
        PARTNER_SIM_STATE_FILE: partnerSimStateFile,
        ...opts.partnerSimEnv,
      },
      logDir,
    });
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

  const stop = async (keepLogs = Boolean(process.env.E2E_KEEP_LOGS)): Promise<ProcessExit[]> => {
    await closeGrpcClients();
    const exits = await Promise.all(
      processes.map(async (proc) => ({ name: proc.name, exit: await proc.stop() })),
    );
    await database.drop();
    if (!keepLogs) rmSync(logDir, { recursive: true, force: true });
    return exits;
  };

  try {
    const partnerSim = await launchPartnerSim();
    // Its dynamic Pix locations are plain http on loopback: allow-listed for the decoder only.
    serviceEnv.decoder = { PIX_LOCATION_HTTP_HOSTS: partnerSim.host };
    // Payout submits to the simulator and tells it to call back the main gateway, whose port is
    // therefore chosen before payout starts.
    const gatewayPorts = { port: await freePort(), adminPort: await freePort() };
    serviceEnv.payout = {
      PARTNER_BASE_URL: partnerSim.url,
      PARTNER_CALLBACK_BASE_URL: `http://127.0.0.1:${gatewayPorts.port}`,
    };
    // The webhook dispatcher reads the shared topic in a group of this run's own (it skips the
    // events of other runs' tenants), and runs the retry schedule in seconds.
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
    // fx first: payout confirms quotes at execute, so it needs fx's address.
    const fx = await launchService('fx');
    serviceEnv.payout.FX_URL = fx.url;
    const names = (Object.keys(SERVICE_SCRIPTS) as ServiceName[]).filter((name) => name !== 'fx');
    const services = [fx, ...(await Promise.all(names.map((name) => launchService(name))))];
    const serviceUrls = Object.fromEntries(
      ['fx', ...names].map((name, i) => [name, services[i]!.url]),
    ) as Record<ServiceName, string>;
    const gateway = await launchGateway(serviceUrls, opts.gatewayEnv, gatewayPorts);
    await Promise.all([partnerSim.ready(), ...services.map((s) => s.ready()), gateway.ready()]);
    const admin = createAdminClient(gateway.handle.adminUrl, adminToken);

    return {
      gatewayUrl: gateway.handle.url,
      partnerSimUrl: partnerSim.url,
      adminUrl: gateway.handle.adminUrl,
      adminToken,
      databaseUrl: database.url,
      serviceUrls,
      metricsUrls: {
        ...(Object.fromEntries(['fx', ...names].map((name, i) => [name, services[i]!.metricsUrl])) as Record<
          ServiceName,
          string
        >),
        gateway: gateway.handle.metricsUrl,
      },
      processes,
      logDir,
      admin,
      createTenant: (name, rateLimitPerMinute) => createTenantViaApi(admin, name, rateLimitPerMinute),
      createTenantWithCli: (name, rateLimitPerMinute) =>
        createTenantViaCli(gateway.handle.adminUrl, adminToken, name, rateLimitPerMinute),
      async startService(name, extraEnv) {
        const launched = await launchService(name, extraEnv);
        await launched.ready();
        return { url: launched.url, metricsUrl: launched.metricsUrl, process: launched.process };
      },
      async restartPartnerSim() {
        const launched = await launchPartnerSim();
        await launched.ready();
        return launched.process;
      },
      async startGateway(extraEnv, ports) {
        const launched = await launchGateway(serviceUrls, extraEnv, ports);
        await launched.ready();
        return launched.handle;
      },
      stop: () => stop(),
    };
  } catch (err) {
    await stop(true).catch(() => {});
    if (err instanceof Error) err.message += `\n(child logs kept in ${logDir})`;
    throw err;
  }
}
