import { int, oneOf, str } from '../config';
import { LOG_LEVELS } from '../logger';
import { metricsSettings } from '../metrics/start';
import { grpcTlsSetting } from './tls';

/**
 * The settings every gRPC service reads alike, for its loadConfig spec: where it listens
 * (GRPC_PORT, HOST), LOG_LEVEL, how it stops (SHUTDOWN_GRACE_MS, GRPC_DRAIN_MS), how long a
 * client connection lives (GRPC_MAX_CONNECTION_AGE_MS, GRPC_MAX_CONNECTION_AGE_GRACE_MS) and its
 * metrics endpoint (METRICS_ENABLED, METRICS_PORT), and mTLS (GRPC_TLS_*, GRPC_HEALTH_PORT).
 */
export function grpcServiceSettings(defaultPort: number) {
  return {
    grpcPort: int('GRPC_PORT', { default: defaultPort, min: 0, max: 65535 }),
    // grpc.health.v1 alone, in cleartext, for the kubelet's probes when GRPC_PORT is mTLS
    // (docs/operators.md "Mutual TLS between services"); unset: no such port.
    grpcHealthPort: int('GRPC_HEALTH_PORT', { optional: true, min: 0, max: 65535 }),
    // mTLS on the server and every client of the process, or none.
    grpcTls: grpcTlsSetting(),
    host: str('HOST', { default: '0.0.0.0' }),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, { default: 'info' }),
    // Under the pod's termination grace period (30 s by default in Kubernetes).
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS', { default: 20_000, min: 0 }),
    grpcDrainMs: int('GRPC_DRAIN_MS', { default: 10_000, min: 0 }),
    // docs/architecture.md "Internal load balancing": every connection is closed (GOAWAY) after
    // about 30 s, so clients re-resolve and spread over replicas added since; 0: never.
    grpcMaxConnectionAgeMs: int('GRPC_MAX_CONNECTION_AGE_MS', { default: 30_000, min: 0 }),
    // Calls running on an aged connection may finish for this long: more than the longest call
    // (an execute waiting EXECUTE_WAIT_MS, at most 60 s, plus the gateway's call timeout).
    grpcMaxConnectionAgeGraceMs: int('GRPC_MAX_CONNECTION_AGE_GRACE_MS', { default: 90_000, min: 0 }),
    ...metricsSettings(),
  };
}

/**
 * The settings of a process that calls gRPC services (gateway, payout), for its loadConfig spec:
 * how its channels spread calls over a service's replicas (docs/architecture.md "Internal load
 * balancing"), and mTLS. Pass them to createGrpcClient as `loadBalancing`, `dnsMinResolutionIntervalMs`
 * and `tls`.
 */
export function grpcClientSettings() {
  return {
    // The same reader as grpcServiceSettings': a process that serves and calls has one certificate.
    grpcTls: grpcTlsSetting(),
    // round_robin: a connection to every address the service's (headless) name resolves to.
    // The values are createGrpcClient's `loadBalancing` (GrpcLoadBalancing).
    grpcLoadBalancing: oneOf('GRPC_LOAD_BALANCING', ['round_robin', 'pick_first'], {
      default: 'round_robin',
    }),
    // A channel re-resolves when a connection drops, at most this often (grpc-js: 30 s by default).
    grpcDnsMinResolutionIntervalMs: int('GRPC_DNS_MIN_RESOLUTION_INTERVAL_MS', {
      default: 5_000,
      min: 100,
      max: 600_000,
    }),
  };
}
