// Link faults, the product side (docs/architecture.md "Deadlines"): every call to PostgreSQL
// and Redis has a client-side deadline, so nothing hangs past it when the link is cut or goes
// half-open (test-e2e/faults/link-faults.ts, against the real PostgreSQL and Redis of the run). A
// pool query on a silent link fails at DB_QUERY_TIMEOUT_MS and its session is dropped, not reused;
// a gRPC service that lost its database answers UNAVAILABLE within the caller's deadline and its
// grpc.health.v1 goes NOT_SERVING, then SERVING once the link is back; the gateway's Redis client
// gives up at its command timeout and the rate limiter and idempotency fast path carry on without it.
import { Code, ConnectError } from '@connectrpc/connect';
import { loadFxConfig, startFx } from '@qr-payout/fx';
import { createPgPool, isDatabaseUnavailable, withTransaction } from '@qr-payout/platform/db';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { newId } from '@qr-payout/platform/ids';
import { silentLogger } from '@qr-payout/platform/log';
import {
  Health,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from '@qr-payout/proto/grpc/health/v1/health_pb';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { testInfra } from '@qr-payout/test-kit/infra';
import { startOnFreshSchema } from '@qr-payout/test-kit/service';
import type pg from 'pg';
import { loadGatewayConfig } from '../gateway/src/config';
import { createGatewayDeps, type GatewayDeps } from '../gateway/src/deps';
import { type LinkFaults, type LinkProxy, startLinkFaults, viaProxy } from './faults/link-faults';

jest.setTimeout(60_000);

const QUERY_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 1_000;
// Timers on a busy machine: what a deadline may overrun by before the test calls it a hang.
const MARGIN_MS = 1_000;

let links: LinkFaults;
let pgLink: LinkProxy;
let redisLink: LinkProxy;

/** How long `work` took, and what it rejected with (undefined when it resolved). */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value?: T; error?: Error }> {
  const started = performance.now();
  try {
    const value = await work();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error: error as Error };
  }
}

/** Polls `probe` until it returns true, up to `ms`; the last result. */
async function eventually(probe: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  links = await startLinkFaults();
  pgLink = await links.proxy('deadlines→postgres', testInfra.databaseUrl);
  redisLink = await links.proxy('deadlines→redis', testInfra.redisUrl);
}, 300_000);

afterEach(async () => {
  if (links) for (const link of [pgLink, redisLink]) if (link) await links.restore(link);
});

afterAll(async () => {
  closeGrpcClients();
  await links?.stop();
});

describe('the platform pool through a faulty link', () => {
  let pool: pg.Pool;
  beforeEach(() => {
    pool = createPgPool({
      connectionString: viaProxy(testInfra.databaseUrl, pgLink),
      schema: 'public',
      max: 2,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
    });
  });
  afterEach(async () => {
    await pool.end();
  });

  const backendPid = async () =>
    (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  test('half-open: a query fails at its deadline, its session is dropped, the next one is fresh', async () => {
    // Two sessions in the pool, both idle when the link goes silent.
    await Promise.all([backendPid(), backendPid()]);
    expect(pool.totalCount).toBe(2);
    const before = await backendPid();

    await links.halfOpen(pgLink);
    const hung = await timed(() => pool.query('SELECT 1'));
    expect(hung.error?.message).toBe('Query read timeout');
    expect(isDatabaseUnavailable(hung.error)).toBe(true);
    expect(hung.ms).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS - 50);
    expect(hung.ms).toBeLessThan(QUERY_TIMEOUT_MS + MARGIN_MS);

    // withTransaction's BEGIN on the other idle session: one deadline, no ROLLBACK waited out.
    const tx = await timed(() => withTransaction(pool, (client) => client.query('SELECT 1')));
    expect(isDatabaseUnavailable(tx.error)).toBe(true);
    expect(tx.ms).toBeLessThan(QUERY_TIMEOUT_MS + MARGIN_MS);
    // Neither session went back to the pool.
    expect(pool.totalCount).toBe(0);

    // A new session cannot start on the silent link: the connect deadline.
    const connecting = await timed(() => pool.query('SELECT 1'));
    expect(isDatabaseUnavailable(connecting.error)).toBe(true);
    expect(connecting.ms).toBeLessThan(CONNECT_TIMEOUT_MS + MARGIN_MS);

    await links.clearToxics(pgLink);
    const after = await timed(backendPid);
    expect(after.error).toBeUndefined();
    expect(after.value).not.toBe(before);
    expect(after.ms).toBeLessThan(MARGIN_MS);
  });

  test('cut: a query on a held session and a new session both fail at once', async () => {
    await backendPid();
    await links.cut(pgLink);
    const held = await timed(() => pool.query('SELECT 1'));
    expect(isDatabaseUnavailable(held.error)).toBe(true);
    expect(held.ms).toBeLessThan(MARGIN_MS);
    const fresh = await timed(() => withTransaction(pool, (client) => client.query('SELECT 1')));
    expect(isDatabaseUnavailable(fresh.error)).toBe(true);
    expect(fresh.ms).toBeLessThan(MARGIN_MS);

    await links.restore(pgLink);
    await expect(backendPid()).resolves.toEqual(expect.any(Number));
  });
});

describe('a gRPC service that loses its database', () => {
  const FX = FxService.typeName;
  const CALL_DEADLINE_MS = 3_000;

  async function startProxiedFx() {
    const fx = await startOnFreshSchema('deadline_fx', (env) => startFx(loadFxConfig(env)), {
      DATABASE_URL: viaProxy(testInfra.databaseUrl, pgLink),
      DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      DB_HEALTH_INTERVAL_MS: '200',
      RETENTION_ENABLED: 'false',
    });
    const health = createGrpcClient(Health, { baseUrl: fx.url, timeoutMs: 2_000 });
    const client = createGrpcClient(FxService, { baseUrl: fx.url, timeoutMs: CALL_DEADLINE_MS });
    const status = async (service: string) => (await health.check({ service })).status;
    const getQuote = () => client.getQuote({ tenantId: 'ten_deadlines', quoteId: newId('quo') });
    return { fx, status, getQuote };
  }

  test.each(['cut', 'halfOpen'] as const)(
    '%s: UNAVAILABLE within the deadline, NOT_SERVING, then SERVING after restore',
    async (fault) => {
      const { fx, status, getQuote } = await startProxiedFx();
      try {
        const ok = await timed(getQuote);
        expect((ok.error as ConnectError | undefined)?.code).toBe(Code.NotFound);
        expect(await status('')).toBe(ServingStatus.SERVING);

        await links[fault](pgLink);
        const call = await timed(getQuote);
        expect(call.error).toBeInstanceOf(ConnectError);
        expect((call.error as ConnectError).code).toBe(Code.Unavailable);
        expect(call.ms).toBeLessThan(fault === 'cut' ? MARGIN_MS : QUERY_TIMEOUT_MS + MARGIN_MS);
        expect(call.ms).toBeLessThan(CALL_DEADLINE_MS);

        // The check's own deadline plus an interval.
        expect(await eventually(async () => (await status('')) === ServingStatus.NOT_SERVING, 5_000)).toBe(
          true,
        );
        expect(await status(FX)).toBe(ServingStatus.NOT_SERVING);
        // Liveness is not the database's business.
        expect(await status('liveness')).toBe(ServingStatus.SERVING);

        await links.restore(pgLink);
        expect(await eventually(async () => (await status('')) === ServingStatus.SERVING, 5_000)).toBe(true);
        expect(await status(FX)).toBe(ServingStatus.SERVING);
        const back = await timed(getQuote);
        expect((back.error as ConnectError | undefined)?.code).toBe(Code.NotFound);
      } finally {
        await links.restore(pgLink);
        await fx.stop();
      }
      // stop() set NOT_SERVING for good: a check answering late cannot undo it (nothing left to ask).
    },
  );
});

describe("the gateway's Redis through a half-open link", () => {
  let deps: GatewayDeps;
  const COMMAND_TIMEOUT_MS = 200;
  const SOCKET_TIMEOUT_MS = 1_000;

  beforeEach(() => {
    const config = loadGatewayConfig({
      DATABASE_URL: testInfra.databaseUrl,
      REDIS_URL: viaProxy(testInfra.redisUrl, redisLink),
      RATE_LIMIT_KEY_PREFIX: `test:deadlines:${newId('req')}:`,
      IDEMPOTENCY_KEY_PREFIX: `test:deadlines:${newId('req')}:`,
      RATE_LIMIT_REDIS_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
      REDIS_SOCKET_TIMEOUT_MS: String(SOCKET_TIMEOUT_MS),
      PAYOUT_ADMIN_TOKEN: 'test-admin-deadlines-0123456789abcdef',
    });
    deps = createGatewayDeps(config, silentLogger());
  });
  afterEach(async () => {
    await deps.close();
  });

  test('commands fail at commandTimeout, limits and idempotency fall back, Redis comes back', async () => {
    const redis = deps.redis!;
    expect(await deps.redisReady(5_000)).toBe(true);
    expect(await redis.ping()).toBe('PONG');

    await links.halfOpen(redisLink);
    const ping = await timed(() => redis.ping());
    expect(ping.error?.message).toMatch(/Command timed out/);
    expect(ping.ms).toBeLessThan(COMMAND_TIMEOUT_MS + MARGIN_MS);

    // The limiter answers from its per-process fallback (ADR 0003) within the command timeout.
    const limited = await timed(() => deps.limiter.consume('key:deadlines', 10, 60_000));
    expect(limited.error).toBeUndefined();
    expect(limited.value?.allowed).toBe(true);
    expect(limited.ms).toBeLessThan(COMMAND_TIMEOUT_MS + MARGIN_MS);
    // While degraded the limiter does not wait on Redis at all.
    const next = await timed(() => deps.limiter.consume('key:deadlines', 10, 60_000));
    expect(next.ms).toBeLessThan(100);

    // The idempotency fast path says "unavailable": payout's record decides (docs/architecture.md
    // "Idempotency").
    const begin = await timed(() =>
      deps.idempotency.begin({ tenantId: 'ten_deadlines', key: newId('req') }, 'fingerprint'),
    );
    expect(begin.value).toEqual({ kind: 'unavailable' });
    expect(begin.ms).toBeLessThan(COMMAND_TIMEOUT_MS + MARGIN_MS);

    // No answer for REDIS_SOCKET_TIMEOUT_MS: the silent socket is dropped, not kept for good.
    const ended = await eventually(async () => redis.status !== 'ready', SOCKET_TIMEOUT_MS + 2_000);
    expect(ended).toBe(true);

    await links.clearToxics(redisLink);
    expect(await eventually(async () => (await redis.ping()) === 'PONG', 10_000)).toBe(true);
    // Back on Redis after the next probe.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await deps.limiter.consume('key:deadlines', 10, 60_000);
    expect((deps.limiter as { degraded?: boolean }).degraded).toBe(false);
  });
});
