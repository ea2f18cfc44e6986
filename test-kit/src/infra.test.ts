import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');

describe('testInfra', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    jest.resetModules();
  });

  it('names the missing variable and how to provide it, instead of guessing a default', () => {
    delete process.env['REDIS_URL'];
    const { testInfra } = require('./infra') as typeof import('./infra');
    expect(() => testInfra.redisUrl).toThrow(/^REDIS_URL is not set: .*scripts\/with-infra/);
  });

  it('reads each variable once and splits KAFKA_BROKERS', () => {
    process.env['DATABASE_URL'] = 'postgres://first@db/x';
    process.env['KAFKA_BROKERS'] = 'k1:9092,k2:9092';
    const { testInfra } = require('./infra') as typeof import('./infra');
    expect(testInfra.databaseUrl).toBe('postgres://first@db/x');
    process.env['DATABASE_URL'] = 'postgres://second@db/x';
    expect(testInfra.databaseUrl).toBe('postgres://first@db/x');
    expect(testInfra.kafkaBrokers).toEqual(['k1:9092', 'k2:9092']);
  });
});

// The kit is for tests only: production sources (every package's src/, minus tests) never import it.
describe('the test kit boundary', () => {
  it('is imported by no production source file', () => {
    const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(
        (file) => /(^|\/)src\//.test(file) && !/\.test\.ts$/.test(file) && !file.startsWith('test-kit/'),
      )
      .filter((file) => existsSync(path.join(REPO_ROOT, file)));
    expect(tracked.length).toBeGreaterThan(100);
    const importers = tracked.filter((file) =>
      readFileSync(path.join(REPO_ROOT, file), 'utf8').includes('@qr-payout/test-kit'),
    );
    expect(importers).toEqual([]);
  });

  it('lists only subpaths that exist', () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '../package.json'), 'utf8')) as {
      exports: Record<string, { development: string }>;
    };
    const files = new Set(readdirSync(__dirname).map((file) => `./src/${file}`));
    for (const [subpath, target] of Object.entries(pkg.exports))
      expect([subpath, files.has(target.development)]).toEqual([subpath, true]);
  });
});
