import { createPgPool } from '@qr-payout/platform/db';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import type { Logger } from '@qr-payout/platform/log';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import type { GatewayConfig } from './config';
import type { IdempotencyCache } from './idempotency/cache';
import { createMemoryIdempotencyCache } from './idempotency/memory-cache';
import { createRedisIdempotencyCache } from './idempotency/redis-cache';
import { createExecutionSettings, type ExecutionSettingsSource } from './payments/execution-settings';
import { createFallbackRateLimiter } from './ratelimit/fallback';
import type { RateLimiter } from './ratelimit/limiter';
import { createMemoryRateLimiter } from './ratelimit/memory';
import { createRedisRateLimiter } from './ratelimit/redis';

export interface GatewayDeps {
  pool: Pool;
  limiter: RateLimiter;
  /** The rate limiter's connection; undefined with RATE_LIMIT_BACKEND=memory. */
  redis: Redis | undefined;
  /**
   * Idempotency fast path on the same Redis; without Redis (the sandbox) one in this process, so
   * 409 IdempotencyInProgress and replays behave the same.
   */
  idempotency: IdempotencyCache;
  /** payout's execute wait and key lifetime, read from payout (it owns them). */
  executionSettings: ExecutionSettingsSource;
  decoder: ReturnType<typeof createGrpcClient<typeof DecoderService>>;
  fx: ReturnType<typeof createGrpcClient<typeof FxService>>;
  payout: ReturnType<typeof createGrpcClient<typeof PayoutService>>;
  webhook: ReturnType<typeof createGrpcClient<typeof WebhookService>>;
  /** Resolves once Redis is connected, or after `timeoutMs` (the fallback limiter covers the rest). */
  redisReady(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

const REDIS_ERROR_LOG_INTERVAL_MS = 10_000;

/**
 * The rate limiter's own Redis connection (the idempotency fast path shares it): no offline queue
 * and a short command timeout, so a Redis outage fails a request's limit check at once and the
 * per-process fallback takes over (docs/architecture.md "Deadlines"). A connection that answers
 * nothing for REDIS_SOCKET_TIMEOUT_MS after a command (a silent link: commandTimeout alone would
 * leave every later command timing out on it) is destroyed and made again; TCP keepalive notices a
 * dead peer on an idle one.
 */
function createRateLimitRedis(url: string, config: GatewayConfig, logger: Logger): Redis {
  const redis = new Redis(url, {
    // rediss://: TLS, verified against REDIS_TLS_CA_FILE when given (docs/architecture.md "TLS to
    // PostgreSQL and Redis").
    ...(config.redisTlsCa ? { tls: { ca: [config.redisTlsCa] } } : {}),
    connectionName: 'gateway-ratelimit',
    enableOfflineQueue: false,
    commandTimeout: config.redisCommandTimeoutMs,
    socketTimeout: config.redisSocketTimeoutMs,
    connectTimeout: config.redisConnectTimeoutMs,
    keepAlive: 10_000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 6), 5_000),
  });
  let lastLogged = 0;
  redis.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastLogged < REDIS_ERROR_LOG_INTERVAL_MS) return;
    lastLogged = now;
    logger.warn({ err: { message: err.message } }, 'rate limiter redis connection error');
  });
  return redis;
}

export function createGatewayDeps(config: GatewayConfig, logger: Logger): GatewayDeps {
  const pool = createPgPool({
    connectionString: config.databaseUrl,
    schema: config.dbSchema,
    max: config.dbPoolMax,
    queryTimeoutMs: config.dbQueryTimeoutMs,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    applicationName: 'gateway',
    onError: (err) => logger.warn({ err: { message: err.message } }, 'idle database client error'),
  });
  const memory = createMemoryRateLimiter();
  const redis =
    config.rateLimitBackend === 'redis' && config.redisUrl
      ? createRateLimitRedis(config.redisUrl, config, logger)
      : undefined;
  const limiter = redis
    ? createFallbackRateLimiter({
        primary: createRedisRateLimiter({ redis, keyPrefix: config.rateLimitKeyPrefix }),
        fallback: memory,
        logger,
      })
    : memory;
  const grpc = {
    timeoutMs: config.grpcTimeoutMs,
    loadBalancing: config.grpcLoadBalancing,
    dnsMinResolutionIntervalMs: config.grpcDnsMinResolutionIntervalMs,
    tls: config.grpcTls,
  };
  const payout = createGrpcClient(PayoutService, { baseUrl: config.payoutUrl, ...grpc });
  const executionSettings = createExecutionSettings({ payout, logger });
  const idempotencyOptions = {
    keyPrefix: config.idempotencyKeyPrefix,
    lockTtlMs: config.idempotencyLockTtlMs,
    ttlMs: async () => (await executionSettings.get()).idempotencyKeyTtlMs,
    logger,
  };
  const idempotency = redis
    ? createRedisIdempotencyCache({ redis, ...idempotencyOptions })
    : createMemoryIdempotencyCache(idempotencyOptions);

  return {
    pool,
    limiter,
    redis,
    idempotency,
    executionSettings,
    decoder: createGrpcClient(DecoderService, { baseUrl: config.decoderUrl, ...grpc }),
    fx: createGrpcClient(FxService, { baseUrl: config.fxUrl, ...grpc }),
    payout,
    webhook: createGrpcClient(WebhookService, { baseUrl: config.webhookUrl, ...grpc }),
    async redisReady(timeoutMs) {
      if (!redis) return true;
      if (redis.status === 'ready') return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          redis.off('ready', onReady);
          resolve(false);
        }, timeoutMs);
        const onReady = () => {
          clearTimeout(timer);
          resolve(true);
        };
        redis.once('ready', onReady);
      });
    },
    async close() {
      await closeGrpcClients();
      await pool.end();
      if (redis) redis.disconnect();
    },
  };
}
