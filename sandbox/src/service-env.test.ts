import type { SandboxCredentials } from './credentials';
import { gatewayEnv, SANDBOX_RETRY_SCALE, sharedServiceEnv } from './service-env';

const credentials: SandboxCredentials = {
  apiKey: 'qrp_test0000_key',
  signingSecret: 'whsec_test',
  adminToken: 'admin-token-test',
  webhookSecretsKey: Buffer.alloc(32, 7).toString('base64'),
};

const placement = {
  host: '127.0.0.1',
  port: 18080,
  adminPort: 18081,
  databaseUrl: 'postgres://postgres@127.0.0.1:40001/postgres',
  serviceUrls: {
    decoder: 'http://127.0.0.1:40011',
    fx: 'http://127.0.0.1:40012',
    payout: 'http://127.0.0.1:40013',
    webhook: 'http://127.0.0.1:40014',
  },
};

describe('sharedServiceEnv', () => {
  it('never passes production infrastructure of the shell on', () => {
    const env = sharedServiceEnv(
      {
        DATABASE_URL: 'postgres://prod-db/payments',
        DB_SCHEMA: 'prod',
        KAFKA_BROKERS: 'kafka.prod:9092',
        REDIS_URL: 'redis://redis.prod:6379',
        DECODER_URL: 'http://decoder.prod:50051',
        GRPC_PORT: '50051',
        PATH: '/usr/bin',
      },
      credentials,
    );
    for (const name of ['DATABASE_URL', 'DB_SCHEMA', 'KAFKA_BROKERS', 'REDIS_URL', 'DECODER_URL']) {
      expect(env).not.toHaveProperty(name);
    }
    expect(env.GRPC_PORT).toBe('0');
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.PATH).toBe('/usr/bin');
  });

  it('applies the embedded defaults and the credentials', () => {
    expect(sharedServiceEnv({}, credentials)).toEqual({
      HOST: '127.0.0.1',
      GRPC_PORT: '0',
      LOG_LEVEL: 'warn',
      MIGRATE_ON_START: 'true',
      DB_POOL_MAX: '3',
      PAYOUT_ADMIN_TOKEN: credentials.adminToken,
      WEBHOOK_SECRETS_KEY: credentials.webhookSecretsKey,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_SCALE: SANDBOX_RETRY_SCALE,
      OTEL_SDK_DISABLED: 'true',
      OUTBOX_POLL_MS: '200',
    });
  });

  it('honours the documented overrides and passes FX_ and OTEL_ knobs on', () => {
    const env = sharedServiceEnv(
      {
        LOG_LEVEL: 'debug',
        DB_POOL_MAX: '5',
        WEBHOOK_RETRY_SCALE: '0.5',
        FX_RATES: 'USD/BRL=5.1',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
        OTEL_SERVICE_NAME: 'sandbox',
      },
      credentials,
    );
    expect(env).toMatchObject({
      LOG_LEVEL: 'debug',
      DB_POOL_MAX: '5',
      WEBHOOK_RETRY_SCALE: '0.5',
      FX_RATES: 'USD/BRL=5.1',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_SDK_DISABLED: 'false',
    });
  });

  it('lets webhooks reach private addresses only while bound to loopback, and not when told false', () => {
    const allowed = (env: NodeJS.ProcessEnv) =>
      sharedServiceEnv(env, credentials).WEBHOOK_ALLOW_PRIVATE_TARGETS;
    expect(allowed({})).toBe('true');
    expect(allowed({ HOST: '127.0.0.1' })).toBe('true');
    expect(allowed({ HOST: 'localhost' })).toBe('true');
    expect(allowed({ HOST: '::1' })).toBe('true');
    expect(allowed({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' })).toBe('false');
    // Reachable from elsewhere: a key holder must not read internal services through a delivery.
    expect(allowed({ HOST: '0.0.0.0' })).toBe('false');
    expect(allowed({ HOST: '0.0.0.0', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toBe('false');
    expect(allowed({ HOST: '192.168.1.20' })).toBe('false');
  });

  it('keeps telemetry off when asked, even with an endpoint', () => {
    const env = sharedServiceEnv(
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' },
      credentials,
    );
    expect(env.OTEL_SDK_DISABLED).toBe('true');
  });
});

describe('gatewayEnv', () => {
  const shared = sharedServiceEnv({}, credentials);

  it('points the gateway at the services, its database and memory rate limits', () => {
    expect(gatewayEnv({}, shared, placement)).toMatchObject({
      DATABASE_URL: placement.databaseUrl,
      HOST: '127.0.0.1',
      PORT: '18080',
      ADMIN_PORT: '18081',
      RATE_LIMIT_BACKEND: 'memory',
      SANDBOX_MODE: 'true',
      DECODER_URL: placement.serviceUrls.decoder,
      FX_URL: placement.serviceUrls.fx,
      PAYOUT_URL: placement.serviceUrls.payout,
      WEBHOOK_URL: placement.serviceUrls.webhook,
      PUBLIC_DOCS_URL: 'http://localhost:18080/docs',
      PAYOUT_ADMIN_TOKEN: credentials.adminToken,
    });
  });

  it('uses PUBLIC_DOCS_URL when given', () => {
    const env = gatewayEnv({ PUBLIC_DOCS_URL: 'https://docs.example.com' }, shared, placement);
    expect(env.PUBLIC_DOCS_URL).toBe('https://docs.example.com');
  });
});
