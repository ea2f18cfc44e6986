import { int, oneOf, str } from '../config';
import { LOG_LEVELS } from '../logger';
import { metricsSettings } from '../metrics/start';

/**
 * The settings every gRPC service reads alike, for its loadConfig spec: where it listens
 * (GRPC_PORT, HOST), LOG_LEVEL, how it stops (SHUTDOWN_GRACE_MS, GRPC_DRAIN_MS) and its metrics
 * endpoint (METRICS_ENABLED, METRICS_PORT).
 */
export function grpcServiceSettings(defaultPort: number) {
  return {
    grpcPort: int('GRPC_PORT', { default: defaultPort, min: 0, max: 65535 }),
    host: str('HOST', { default: '0.0.0.0' }),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, { default: 'info' }),
    // Under the pod's termination grace period (30 s by default in Kubernetes).
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS', { default: 20_000, min: 0 }),
    grpcDrainMs: int('GRPC_DRAIN_MS', { default: 10_000, min: 0 }),
    ...metricsSettings(),
  };
}
