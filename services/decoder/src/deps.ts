import { createLogger, type Logger } from '@qr-payout/platform/log';
import type { DecoderConfig } from './config';
import { createHttpDynamicPixFetcher } from './pix/dynamic/http-fetcher';
import type { DynamicPixFetcher } from './pix/dynamic/types';

/** The decoder's infrastructure: its logger and the HTTP client of dynamic Pix locations. */
export type DecoderDeps = {
  readonly logger: Logger;
  /** Fetches a dynamic Pix location and its JWKS (src/pix/dynamic). */
  readonly dynamicPix: DynamicPixFetcher;
  /** Releases what the deps hold (nothing today: no pools, no sockets kept). */
  close(): Promise<void>;
};

export type DecoderDepsOverrides = {
  /** Replaces the fetcher of dynamic Pix payloads (tests pass one that serves known payloads). */
  readonly dynamicPixFetcher?: DynamicPixFetcher;
};

export function createDeps(config: DecoderConfig, overrides: DecoderDepsOverrides = {}): DecoderDeps {
  return {
    logger: createLogger({ service: 'decoder', level: config.logLevel }),
    dynamicPix:
      overrides.dynamicPixFetcher ??
      createHttpDynamicPixFetcher({
        timeoutMs: config.pixLocationTimeoutMs,
        maxBytes: config.pixLocationMaxBytes,
        httpHosts: config.pixLocationHttpHosts,
        jwksCacheTtlMs: config.pixJwksCacheTtlMs,
      }),
    close: async () => {},
  };
}
