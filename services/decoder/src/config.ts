import { type Env, int, list, loadConfig, oneOf, str } from '@qr-payout/platform';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** The decoder's typed, frozen config; fails fast naming every bad variable. */
export function loadDecoderConfig(env: Env) {
  return loadConfig(
    {
      grpcPort: int('GRPC_PORT', { default: 50051, min: 0, max: 65535 }),
      host: str('HOST', { default: '0.0.0.0' }),
      logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, { default: 'info' }),
      // Under the pod's termination grace period (30 s by default in Kubernetes).
      shutdownGraceMs: int('SHUTDOWN_GRACE_MS', { default: 20_000, min: 0 }),
      grpcDrainMs: int('GRPC_DRAIN_MS', { default: 10_000, min: 0 }),
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
