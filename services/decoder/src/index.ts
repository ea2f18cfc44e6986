import { type RunningGrpcService, serveGrpc } from '@qr-payout/platform/grpc';
import { loadDecoderConfig } from './config';
import { createDeps, type DecoderDepsOverrides } from './deps';
import { buildServer } from './server';

export { loadDecoderConfig } from './config';
export type { DecodedInstruction } from './decode/types';
export type { DecoderDepsOverrides } from './deps';
export { type EmvObject, encodeMerchantQr, encodeTlv } from './emv/encode';
export type { DynamicPixFetcher, DynamicPixPayload } from './pix/dynamic/types';
export { SCHEME_CATALOGUE, type SchemeEntry } from './schemes/catalogue';

export type RunningDecoder = RunningGrpcService;

/**
 * Loads config from `env`, builds the decoder and listens on GRPC_PORT (0 picks a free port).
 * `overrides.dynamicPixFetcher` replaces the dynamic Pix fetcher (tests).
 */
export async function startDecoder(
  env: NodeJS.ProcessEnv,
  overrides: DecoderDepsOverrides = {},
): Promise<RunningDecoder> {
  const config = loadDecoderConfig(env);
  const deps = createDeps(config, overrides);
  return serveGrpc({
    server: buildServer(deps),
    deps,
    config,
  });
}
