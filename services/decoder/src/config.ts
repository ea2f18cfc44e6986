import { type Env, int, list, loadConfig } from '@qr-payout/platform/config';
import { grpcServiceSettings } from '@qr-payout/platform/grpc';

/** The decoder's typed, frozen config; fails fast naming every bad variable. */
export function loadDecoderConfig(env: Env) {
  return loadConfig(
    {
      ...grpcServiceSettings(50051),
      // Dynamic Pix (src/pix/dynamic): one fetch of a location and its JWKS within this deadline.
      pixLocationTimeoutMs: int('PIX_LOCATION_TIMEOUT_MS', { default: 3_000, min: 1, max: 60_000 }),
      pixLocationMaxBytes: int('PIX_LOCATION_MAX_BYTES', { default: 65_536, min: 1_024, max: 1_048_576 }),
      // host[:port] fetched over plain http instead of https: the partner simulator only.
      pixLocationHttpHosts: list('PIX_LOCATION_HTTP_HOSTS', { default: [] }),
      pixJwksCacheTtlMs: int('PIX_JWKS_CACHE_TTL_MS', { default: 300_000, min: 0, max: 86_400_000 }),
    },
    env,
  );
}

export type DecoderConfig = ReturnType<typeof loadDecoderConfig>;
