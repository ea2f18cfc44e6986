import type { Logger } from 'pino';

/**
 * A value fetched from another service and cached in the gateway (stale-while-revalidate): fresh
 * for `ttlMs`; after that the cached value is still returned at once while one background call
 * refreshes it, so the hot path never waits once the first fetch succeeded. A failed refresh keeps
 * the old value, logs `what`, and is retried after `retryMs`. Concurrent callers share one fetch,
 * so the fetch carries no caller's abort signal. Only the very first fetch can reject a caller.
 */
export function createRefreshingValue<T>(opts: {
  fetch: () => Promise<T>;
  /** Names the value in the refresh-failure log line. */
  what: string;
  logger: Logger;
  ttlMs: number;
  retryMs?: number;
  now?: () => number;
}): { get(): Promise<T> } {
  const now = opts.now ?? Date.now;
  const retryMs = opts.retryMs ?? 1_000;
  let cached: { value: T } | undefined;
  let freshUntil = 0;
  let inFlight: Promise<T> | undefined;

  function refresh(): Promise<T> {
    inFlight ??= opts
      .fetch()
      .then((value) => {
        cached = { value };
        freshUntil = now() + opts.ttlMs;
        return value;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  return {
    async get() {
      if (cached === undefined) return refresh();
      if (now() >= freshUntil && !inFlight) {
        freshUntil = now() + retryMs;
        refresh().catch((err: unknown) =>
          opts.logger.warn(
            { err: { message: (err as Error)?.message } },
            `${opts.what} refresh failed; using the cached value`,
          ),
        );
      }
      return cached.value;
    },
  };
}
