import { type Env, int, loadConfig, oneOf, str } from '@qr-payout/platform';

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
    },
    env,
  );
}

export type DecoderConfig = ReturnType<typeof loadDecoderConfig>;
