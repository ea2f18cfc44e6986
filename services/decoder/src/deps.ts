import { createLogger, type Logger } from '@qr-payout/platform/log';
import type { DecoderConfig } from './config';
import { createQrDecoder, type QrDecoder } from './decode/decoder';
import { createHttpDynamicPixFetcher } from './pix/dynamic/http-fetcher';
import type { DynamicPixFetcher } from './pix/dynamic/types';
import { SCHEME_CATALOGUE } from './schemes/catalogue';
import { createSchemeService, type SchemeService } from './schemes/service';

export type DecoderDeps = {
  readonly config: DecoderConfig;
  readonly logger: Logger;
  readonly schemes: SchemeService;
  readonly decoder: QrDecoder;
  /** Releases what the deps hold (the decoder holds no pools or clients). */
  close(): Promise<void>;
};

export type DecoderDepsOverrides = {
  /** Replaces the fetcher of dynamic Pix payloads (tests pass one that serves known payloads). */
  readonly dynamicPixFetcher?: DynamicPixFetcher;
};

export function createDeps(config: DecoderConfig, overrides: DecoderDepsOverrides = {}): DecoderDeps {
  const logger = createLogger({ service: 'decoder', level: config.logLevel });
  const dynamicPix =
    overrides.dynamicPixFetcher ??
    createHttpDynamicPixFetcher({
      timeoutMs: config.pixLocationTimeoutMs,
      maxBytes: config.pixLocationMaxBytes,
      httpHosts: config.pixLocationHttpHosts,
      jwksCacheTtlMs: config.pixJwksCacheTtlMs,
    });
  return {
    config,
    logger,
    schemes: createSchemeService({ catalogue: SCHEME_CATALOGUE }),
    decoder: createQrDecoder({ dynamicPix }),
    close: async () => {},
  };
}
