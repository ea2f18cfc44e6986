import { Redis } from 'ioredis';
import type { Logger } from './logger';

export type { Redis };

export type RedisOptions = {
  /** Names the connection in logs and in CLIENT LIST. */
  name: string;
  logger?: Logger;
  /** Prefix added to every key (tests isolate themselves with a random one). */
  keyPrefix?: string;
  /** Commands queued while disconnected fail after this many reconnect attempts. */
  maxRetriesPerRequest?: number;
};

const MAX_BACKOFF_MS = 5_000;
const ERROR_LOG_INTERVAL_MS = 10_000;

/** An ioredis client with bounded reconnect backoff; connection errors are logged, never thrown. */
export function createRedis(url: string, opts: RedisOptions): Redis {
  const redis = new Redis(url, {
    connectionName: opts.name,
    ...(opts.keyPrefix ? { keyPrefix: opts.keyPrefix } : {}),
    maxRetriesPerRequest: opts.maxRetriesPerRequest ?? 2,
    // How long disconnect() waits for the socket to close before destroying it (ioredis: 2 s).
    disconnectTimeout: 500,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 6), MAX_BACKOFF_MS),
  });
  // Without a listener ioredis emits 'error' as an unhandled event and takes the process down.
  // While Redis is away it errors on every retry; one line per interval is enough.
  let lastLogged = 0;
  redis.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastLogged < ERROR_LOG_INTERVAL_MS) return;
    lastLogged = now;
    opts.logger?.warn({ err: { message: err.message }, redis: opts.name }, 'redis connection error');
  });
  return redis;
}
