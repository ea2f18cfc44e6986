import { createLogger, type Logger } from '@qr-payout/platform';
import type { DecoderConfig } from './config';
import { SCHEME_CATALOGUE } from './schemes/catalogue';
import { createSchemeService, type SchemeService } from './schemes/service';

export type DecoderDeps = {
  readonly config: DecoderConfig;
  readonly logger: Logger;
  readonly schemes: SchemeService;
  /** Releases what the deps hold (the decoder holds no pools or clients yet). */
  close(): Promise<void>;
};

export function createDeps(config: DecoderConfig): DecoderDeps {
  const logger = createLogger({ service: 'decoder', level: config.logLevel });
  return {
    config,
    logger,
    schemes: createSchemeService({ catalogue: SCHEME_CATALOGUE }),
    close: async () => {},
  };
}
