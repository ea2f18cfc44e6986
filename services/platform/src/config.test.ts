import { bool, givenValue, int, list, loadConfig, num, oneOf, str, url } from './config';

const shape = {
  port: int('PORT', { default: 8080, min: 1, max: 65535 }),
  databaseUrl: url('DATABASE_URL'),
  logLevel: oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error'], { default: 'info' }),
  adminToken: str('PAYOUT_ADMIN_TOKEN', { secret: true }),
  allowPrivate: bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', { default: false }),
  brokers: list('KAFKA_BROKERS', { default: ['127.0.0.1:9092'] }),
  retryScale: num('WEBHOOK_RETRY_SCALE', { default: 1, min: 0 }),
  region: str('REGION', { optional: true }),
};

const good = {
  PORT: '9090',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
  LOG_LEVEL: 'debug',
  PAYOUT_ADMIN_TOKEN: 'tok-123',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  KAFKA_BROKERS: 'a:1, b:2',
  WEBHOOK_RETRY_SCALE: '0.5',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(shape, env);
  } catch (err) {
    if (err instanceof Error && err.name === 'ConfigError')
      return [...(err as Error & { problems: string[] }).problems];
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('reads and types every variable', () => {
    const config = loadConfig(shape, good);
    expect(config).toEqual({
      port: 9090,
      databaseUrl: good.DATABASE_URL,
      logLevel: 'debug',
      adminToken: 'tok-123',
      allowPrivate: true,
      brokers: ['a:1', 'b:2'],
      retryScale: 0.5,
      region: undefined,
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.brokers)).toBe(true);
  });

  it('applies defaults for unset and empty variables', () => {
    const config = loadConfig(shape, { DATABASE_URL: good.DATABASE_URL, PAYOUT_ADMIN_TOKEN: 'x', PORT: '' });
    expect(config.port).toBe(8080);
    expect(config.logLevel).toBe('info');
    expect(config.allowPrivate).toBe(false);
    expect(config.brokers).toEqual(['127.0.0.1:9092']);
  });

  it('names a missing required variable', () => {
    const { DATABASE_URL: _omit, ...env } = good;
    expect(problemsOf(env)).toEqual(['DATABASE_URL is required']);
  });

  it('rejects a bad integer and one out of range', () => {
    expect(problemsOf({ ...good, PORT: '80a' })).toEqual(['PORT must be an integer (got "80a")']);
    expect(problemsOf({ ...good, PORT: '70000' })).toEqual(['PORT must be <= 65535 (got "70000")']);
    expect(problemsOf({ ...good, PORT: '1.5' })).toEqual(['PORT must be an integer (got "1.5")']);
  });

  it('collects every problem into one ConfigError', () => {
    const env = { ...good, PORT: 'x', LOG_LEVEL: 'loud', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' };
    delete (env as Partial<typeof env>).PAYOUT_ADMIN_TOKEN;
    const problems = problemsOf(env);
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/PORT/);
    expect(problems.join('\n')).toMatch(/LOG_LEVEL must be one of debug, info, warn, error/);
    expect(problems.join('\n')).toMatch(/WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/);
    expect(problems.join('\n')).toMatch(/PAYOUT_ADMIN_TOKEN is required/);
    expect(() => loadConfig(shape, env)).toThrow(
      /PORT.*LOG_LEVEL.*PAYOUT_ADMIN_TOKEN.*WEBHOOK_ALLOW_PRIVATE_TARGETS/,
    );
  });

  it('never echoes the value of a secret or of a URL', () => {
    const secretShape = { pin: int('SIGNING_PIN', { secret: true }), db: url('DATABASE_URL') };
    const env = { SIGNING_PIN: 'hunter2-secret', DATABASE_URL: 'postgres://u:p4ssw0rd@ host' };
    let message = '';
    try {
      loadConfig(secretShape, env);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/SIGNING_PIN must be an integer/);
    expect(message).toMatch(/DATABASE_URL must be a valid URL/);
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('p4ssw0rd');
  });
});

describe('givenValue', () => {
  it('trims a value and takes a blank or unset one as not given', () => {
    const env = { A: '  /etc/tls/cert.pem ', B: '   ', C: '' };
    expect(['A', 'B', 'C', 'D'].map((name) => givenValue(env, name))).toEqual([
      '/etc/tls/cert.pem',
      undefined,
      undefined,
      undefined,
    ]);
  });
});
