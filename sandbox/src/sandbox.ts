import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadDecoderConfig, startDecoder } from '@qr-payout/decoder';
import { loadFxConfig, startFx } from '@qr-payout/fx';
import { loadGatewayConfig, startGateway } from '@qr-payout/gateway';
import { startPartnerSim } from '@qr-payout/partner-sim';
import { loadPayoutConfig, startPayout } from '@qr-payout/payout';
import { createMemoryBus } from '@qr-payout/platform/events';
import { closeGrpcClients } from '@qr-payout/platform/grpc';
import type { Logger } from '@qr-payout/platform/log';
import type { ShutdownStep } from '@qr-payout/platform/shutdown';
import { loadWebhookConfig, startWebhook } from '@qr-payout/webhook';
import { loadSandboxCredentials, type SandboxCredentials } from './credentials';
import { initdbCacheDir, startEmbeddedDatabases } from './embedded-postgres';
import { freePort, reservePort } from './free-port';
import { ensureSandboxTenant, SANDBOX_TENANT_ID } from './sandbox-tenant';
import { gatewayEnv, sharedServiceEnv } from './service-env';

// docs/architecture.md "Deployment": every service in one process on embedded defaults. The
// services still talk gRPC to each other on 127.0.0.1; only the infrastructure is embedded: PGlite
// instead of PostgreSQL, an in-process event bus instead of Kafka, in-memory rate limits instead of
// Redis.

/** Schemas owned by a service, one embedded database each (see embedded-postgres.ts). */
const SCHEMAS = ['gateway', 'fx', 'payout', 'webhook'] as const;

/** The repository's `.data/`, wherever the process was started from. */
export const DEFAULT_DATA_DIR = path.resolve(__dirname, '..', '..', '.data');

export type RunningSandbox = SandboxCredentials & {
  /** Public API, e.g. http://localhost:8080. */
  readonly baseUrl: string;
  /** The admin API (payoutctl --admin-url). */
  readonly adminUrl: string;
  /** The partner simulator (dynamic Pix charges: POST /pix/v2/cob). */
  readonly partnerSimUrl: string;
  readonly docsUrl: string;
  readonly tenantId: string;
  readonly dataDir: string;
  /** Ordered shutdown: gateway, services, partner simulator, event bus, databases (for platform onShutdown). */
  readonly shutdownSteps: ShutdownStep[];
  /** Runs the shutdown steps in order. Idempotent. */
  close(): Promise<void>;
};

export type SandboxOptions = {
  /** Receives the sandbox's own log lines (the services log through their own loggers). */
  logger?: Logger;
};

function portFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid configuration: ${name} must be a port number from 0 to 65535`);
  }
  return port;
}

/** Runs `close` of everything started so far, in reverse order, when a later step fails. */
function createCleanup() {
  const closers: Array<() => Promise<void>> = [];
  return {
    add(close: () => Promise<void>) {
      closers.unshift(close);
    },
    async run() {
      for (const close of closers) await close().catch(() => undefined);
    },
  };
}

/**
 * Starts the sandbox from `env`: SANDBOX_DATA_DIR (default `.data/`), PORT (8080), ADMIN_PORT
 * (8081), HOST (127.0.0.1), SANDBOX_API_KEY, SANDBOX_SIGNING_SECRET, PAYOUT_ADMIN_TOKEN,
 * LOG_LEVEL (warn), PUBLIC_DOCS_URL, WEBHOOK_RETRY_SCALE, DB_POOL_MAX (3).
 */
export async function startSandbox(
  env: NodeJS.ProcessEnv,
  opts: SandboxOptions = {},
): Promise<RunningSandbox> {
  const dataDir = path.resolve(env.SANDBOX_DATA_DIR || DEFAULT_DATA_DIR);
  const host = env.HOST || '127.0.0.1';
  // Port 0 asks for a free port; it is picked here so the printed URLs and the docs links match,
  // and held until the gateway binds it (seconds later, after the databases): a port merely seen
  // free was taken meanwhile by another process's outbound connection (EADDRINUSE in CI).
  const reserved: Array<{ release(): Promise<void> }> = [];
  const pick = async (name: string, fallback: number): Promise<number> => {
    const given = portFrom(env, name, fallback);
    if (given) return given;
    const reservation = await reservePort(host);
    reserved.push(reservation);
    return reservation.port;
  };
  const port = await pick('PORT', 8080);
  const adminPort = await pick('ADMIN_PORT', 8081);
  const releaseReserved = async () => {
    for (const reservation of reserved.splice(0)) await reservation.release();
  };
  const credentials = await loadSandboxCredentials(dataDir, env);
  const cleanup = createCleanup();

  try {
    const databases = await startEmbeddedDatabases({
      dataDir: path.join(dataDir, 'pglite'),
      schemas: SCHEMAS,
      initdbCacheDir: initdbCacheDir(env),
    });
    cleanup.add(databases.close);
    const bus = createMemoryBus({ logger: opts.logger });
    cleanup.add(() => bus.close());

    const shared = sharedServiceEnv(env, credentials);
    const withDatabase = (schema: (typeof SCHEMAS)[number]) => ({
      ...shared,
      DATABASE_URL: databases.urlFor(schema),
    });

    // The partner simulator stands in for the rails' partners
    // (docs/architecture.md "Rails and partners", "Deployment"): it serves the signed payloads of
    // dynamic Pix codes, fetched by the decoder over plain http on loopback only. Signs the
    // simulator's payout callbacks; the gateway verifies them (docs/partner-callbacks.md).
    const partnerCallbackSecret = randomBytes(24).toString('base64url');
    const partnerSim = await startPartnerSim({
      ...shared,
      PARTNER_SIM_CALLBACK_SECRET: partnerCallbackSecret,
      // Payouts survive a restart, as at a real partner (partner-sim README "Persistence").
      PARTNER_SIM_STATE_FILE: path.join(dataDir, 'partner-sim', 'payouts.jsonl'),
      HOST: '127.0.0.1',
      PORT: String(portFrom(env, 'PARTNER_SIM_PORT', 0) || (await freePort('127.0.0.1'))),
    });
    cleanup.add(() => partnerSim.close());
    const partnerSimHost = new URL(partnerSim.baseUrl).host;

    // fx first: payout confirms quotes at execute, so it needs fx's address.
    const fx = await startFx(loadFxConfig(withDatabase('fx')));
    cleanup.add(() => fx.stop());
    const [decoder, payout, webhook] = await startAllOrNone([
      startDecoder(loadDecoderConfig({ ...shared, PIX_LOCATION_HTTP_HOSTS: partnerSimHost })),
      startPayout(
        loadPayoutConfig({
          ...withDatabase('payout'),
          FX_URL: fx.url,
          // Payouts go to the simulator, which calls back the gateway's public port.
          PARTNER_BASE_URL: partnerSim.baseUrl,
          PARTNER_CALLBACK_BASE_URL: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
        }),
        { bus },
      ),
      startWebhook(loadWebhookConfig(withDatabase('webhook')), { bus }),
    ] as const);
    const services = [decoder, payout, webhook, fx];
    cleanup.add(() => stopAll([decoder, payout, webhook]));

    await releaseReserved();
    const gateway = await startGateway(
      loadGatewayConfig({
        ...gatewayEnv(env, shared, {
          host,
          port,
          adminPort,
          databaseUrl: databases.urlFor('gateway'),
          serviceUrls: { decoder: decoder.url, fx: fx.url, payout: payout.url, webhook: webhook.url },
        }),
        PARTNER_CALLBACK_SECRET: partnerCallbackSecret,
      }),
    );
    cleanup.add(async () => {
      await gateway.stop();
      await closeGrpcClients();
    });

    // port and adminPort are never 0 here (picked above), so the printed URLs are the bound ones.
    const baseUrl = `http://localhost:${port}`;
    const adminUrl = `http://localhost:${adminPort}`;
    await ensureSandboxTenant({ adminUrl, credentials });

    const shutdownSteps: ShutdownStep[] = [
      { name: 'gateway', run: () => gateway.stop() },
      { name: 'grpc-clients', run: () => closeGrpcClients() },
      { name: 'services', run: () => stopAll(services) },
      { name: 'partner-sim', run: () => partnerSim.close() },
      { name: 'event-bus', run: () => bus.close() },
      { name: 'databases', run: () => databases.close() },
    ];
    let closing: Promise<void> | undefined;
    return {
      ...credentials,
      baseUrl,
      adminUrl,
      partnerSimUrl: partnerSim.baseUrl,
      docsUrl: env.PUBLIC_DOCS_URL || `${baseUrl}/docs`,
      tenantId: SANDBOX_TENANT_ID,
      dataDir,
      shutdownSteps,
      close() {
        closing ??= (async () => {
          for (const step of shutdownSteps) await step.run();
        })();
        return closing;
      },
    };
  } catch (err) {
    await releaseReserved();
    await cleanup.run();
    throw err;
  }
}

type Stoppable = { stop(): Promise<void> };

/** Waits for every start; when one fails, stops the ones that started and rethrows. */
async function startAllOrNone<T extends readonly Promise<Stoppable>[]>(
  starts: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(starts);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stopAll(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))).catch(() => undefined);
    throw failed.reason;
  }
  return results.map((r) => (r as PromiseFulfilledResult<Stoppable>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}

async function stopAll(services: Stoppable[]): Promise<void> {
  const results = await Promise.allSettled(services.map((s) => s.stop()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
