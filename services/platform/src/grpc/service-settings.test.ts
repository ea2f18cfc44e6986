import { loadConfig } from '../config';
import { grpcClientSettings, grpcServiceSettings } from './service-settings';

function problemsOf(read: () => unknown): string[] {
  try {
    read();
  } catch (err) {
    if (err instanceof Error && err.name === 'ConfigError')
      return [...(err as Error & { problems: string[] }).problems];
    throw err;
  }
  throw new Error('expected a ConfigError');
}

// docs/architecture.md "Internal load balancing": the settings behind it and their defaults.
describe('grpcServiceSettings: connection age', () => {
  it('closes connections after 30 s by default, letting calls finish for 90 s', () => {
    const config = loadConfig(grpcServiceSettings(50051), {});
    expect(config.grpcMaxConnectionAgeMs).toBe(30_000);
    expect(config.grpcMaxConnectionAgeGraceMs).toBe(90_000);
  });

  it('reads GRPC_MAX_CONNECTION_AGE_MS (0: never) and GRPC_MAX_CONNECTION_AGE_GRACE_MS', () => {
    const config = loadConfig(grpcServiceSettings(50051), {
      GRPC_MAX_CONNECTION_AGE_MS: '0',
      GRPC_MAX_CONNECTION_AGE_GRACE_MS: '120000',
    });
    expect(config.grpcMaxConnectionAgeMs).toBe(0);
    expect(config.grpcMaxConnectionAgeGraceMs).toBe(120_000);
  });

  it('names every bad value', () => {
    const problems = problemsOf(() =>
      loadConfig(grpcServiceSettings(50051), {
        GRPC_MAX_CONNECTION_AGE_MS: '30s',
        GRPC_MAX_CONNECTION_AGE_GRACE_MS: '-1',
      }),
    );
    expect(problems).toEqual([
      'GRPC_MAX_CONNECTION_AGE_MS must be an integer (got "30s")',
      'GRPC_MAX_CONNECTION_AGE_GRACE_MS must be >= 0 (got "-1")',
    ]);
  });
});

describe('grpcClientSettings', () => {
  it('spreads calls with round_robin and re-resolves at most every 5 s by default', () => {
    expect(loadConfig(grpcClientSettings(), {})).toEqual({
      grpcLoadBalancing: 'round_robin',
      grpcDnsMinResolutionIntervalMs: 5_000,
    });
  });

  it('reads GRPC_LOAD_BALANCING and GRPC_DNS_MIN_RESOLUTION_INTERVAL_MS', () => {
    const config = loadConfig(grpcClientSettings(), {
      GRPC_LOAD_BALANCING: 'pick_first',
      GRPC_DNS_MIN_RESOLUTION_INTERVAL_MS: '30000',
    });
    expect(config).toEqual({ grpcLoadBalancing: 'pick_first', grpcDnsMinResolutionIntervalMs: 30_000 });
  });

  it('refuses an unknown policy and an interval out of range', () => {
    expect(
      problemsOf(() =>
        loadConfig(grpcClientSettings(), {
          GRPC_LOAD_BALANCING: 'least_request',
          GRPC_DNS_MIN_RESOLUTION_INTERVAL_MS: '0',
        }),
      ),
    ).toEqual([
      'GRPC_LOAD_BALANCING must be one of round_robin, pick_first (got "least_request")',
      'GRPC_DNS_MIN_RESOLUTION_INTERVAL_MS must be >= 100 (got "0")',
    ]);
  });
});
