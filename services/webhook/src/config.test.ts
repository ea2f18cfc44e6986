import { randomBytes } from 'node:crypto';
import { loadDatabaseConfig, loadWebhookConfig } from './config';

const key = randomBytes(32);
const base = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
  WEBHOOK_SECRETS_KEY: key.toString('base64'),
};

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadWebhookConfig(env);
  } catch (err) {
    if (err instanceof Error && err.name === 'ConfigError')
      return (err as Error & { problems: string[] }).problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadWebhookConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadWebhookConfig(base);
    expect(config).toMatchObject({
      grpcPort: 50054,
      host: '0.0.0.0',
      dbPoolMax: 10,
      dbSchema: 'webhook',
      migrateOnStart: false,
      allowPrivateTargets: false,
      retryScale: 1,
      replayMinIntervalMs: 10_000,
      kafkaBrokers: ['127.0.0.1:9092'],
      previousSecretsKeys: [],
    });
    expect(config.secretsKey.equals(key)).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('accepts the key in base64url and older keys for a rotation', () => {
    const older = randomBytes(32);
    const config = loadWebhookConfig({
      ...base,
      WEBHOOK_SECRETS_KEY: key.toString('base64url'),
      WEBHOOK_SECRETS_PREVIOUS_KEYS: ` ${older.toString('base64')} `,
    });
    expect(config.secretsKey.equals(key)).toBe(true);
    expect(config.previousSecretsKeys.map((k) => k.toString('hex'))).toEqual([older.toString('hex')]);
  });

  it.each([
    ['missing', {}, 'WEBHOOK_SECRETS_KEY is required (32 random bytes, base64)'],
    ['empty', { WEBHOOK_SECRETS_KEY: '  ' }, 'WEBHOOK_SECRETS_KEY is required (32 random bytes, base64)'],
    ['not base64', { WEBHOOK_SECRETS_KEY: 'not base64!' }, 'WEBHOOK_SECRETS_KEY must be base64'],
    [
      '16 bytes',
      { WEBHOOK_SECRETS_KEY: randomBytes(16).toString('base64') },
      'WEBHOOK_SECRETS_KEY must be 32 bytes once base64-decoded (got 16)',
    ],
    [
      '33 bytes',
      { WEBHOOK_SECRETS_KEY: randomBytes(33).toString('base64') },
      'WEBHOOK_SECRETS_KEY must be 32 bytes once base64-decoded (got 33)',
    ],
    [
      'a short previous key',
      { WEBHOOK_SECRETS_KEY: key.toString('base64'), WEBHOOK_SECRETS_PREVIOUS_KEYS: 'AAAA' },
      'WEBHOOK_SECRETS_PREVIOUS_KEYS item 1 must be 32 bytes once base64-decoded (got 3)',
    ],
  ])('fails naming WEBHOOK_SECRETS_KEY when it is %s', (_, keys, problem) => {
    const { WEBHOOK_SECRETS_KEY: _omitted, ...withoutKey } = base;
    expect(problemsOf({ ...withoutKey, ...keys })).toEqual([problem]);
  });

  it('never echoes a bad key', () => {
    const badKey = randomBytes(20).toString('base64');
    const problems = problemsOf({ ...base, WEBHOOK_SECRETS_KEY: badKey });
    expect(problems.join(' ')).not.toContain(badKey);
  });

  it('reports every bad variable at once', () => {
    expect(
      problemsOf({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe', WEBHOOK_RETRY_SCALE: '-1', GRPC_PORT: 'x' }),
    ).toEqual([
      'GRPC_PORT must be an integer (got "x")',
      'DATABASE_URL is required',
      'WEBHOOK_SECRETS_KEY is required (32 random bytes, base64)',
      'WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false (got "maybe")',
      'WEBHOOK_RETRY_SCALE must be >= 0 (got "-1")',
    ]);
  });
});

describe('DB_SCHEMA', () => {
  it('refuses a name that is not a plain identifier', () => {
    expect(problemsOf({ ...base, DB_SCHEMA: 'webhook"; drop' })).toEqual([
      'DB_SCHEMA must be a lower-case SQL identifier (got "webhook\\"; drop")',
    ]);
  });
});

describe('loadDatabaseConfig', () => {
  it('needs no secrets key, so the migration job holds none', () => {
    expect(loadDatabaseConfig({ DATABASE_URL: base.DATABASE_URL, DB_SCHEMA: 'webhook_x' })).toMatchObject({
      dbSchema: 'webhook_x',
      dbPoolMax: 10,
    });
  });
});
