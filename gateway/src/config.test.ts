import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadGatewayConfig, loadGatewayMigrateConfig } from './config';

const BASE = {
  DATABASE_URL: 'postgres://u:p@db:5432/payments',
  PAYOUT_ADMIN_TOKEN: 'operator-token-of-32-characters!',
};
const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-config-'));
const CA = path.join(dir, 'ca.crt');
writeFileSync(CA, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadGatewayConfig: TLS to Redis', () => {
  it('takes the CA of a rediss:// Redis', () => {
    const config = loadGatewayConfig({ ...BASE, REDIS_URL: 'rediss://cache:6380', REDIS_TLS_CA_FILE: CA });
    expect(config.redisTlsCa).toContain('-----BEGIN CERTIFICATE-----\nMIIB');
  });

  it('refuses a CA for a plaintext Redis, and a file it cannot read or that holds no PEM', () => {
    expect(() =>
      loadGatewayConfig({ ...BASE, REDIS_URL: 'redis://cache:6379', REDIS_TLS_CA_FILE: CA }),
    ).toThrow(/REDIS_TLS_CA_FILE needs a rediss:\/\/ REDIS_URL/);
    expect(() =>
      loadGatewayConfig({
        ...BASE,
        REDIS_URL: 'rediss://cache:6380',
        REDIS_TLS_CA_FILE: path.join(dir, 'none'),
      }),
    ).toThrow(/cannot read .*none \(ENOENT\)/);
    const notPem = path.join(dir, 'not.pem');
    writeFileSync(notPem, 'x');
    expect(() =>
      loadGatewayConfig({ ...BASE, REDIS_URL: 'rediss://cache:6380', REDIS_TLS_CA_FILE: notPem }),
    ).toThrow(/holds no PEM block/);
  });
});

describe('loadGatewayMigrateConfig', () => {
  it('needs the database only: no admin token, no Redis', () => {
    expect(loadGatewayMigrateConfig({ DATABASE_URL: BASE.DATABASE_URL })).toEqual({
      databaseUrl: BASE.DATABASE_URL,
      dbSchema: 'gateway',
      logLevel: 'info',
    });
  });
});

describe('loadGatewayConfig: the operator token', () => {
  it('refuses a token shorter than 32 characters at start, without echoing it', () => {
    const short = 'op-token-31-characters-long-xyz';
    expect(short).toHaveLength(31);
    let problem = '';
    try {
      loadGatewayConfig({ ...BASE, REDIS_URL: 'redis://cache:6379', PAYOUT_ADMIN_TOKEN: short });
    } catch (err) {
      problem = (err as Error).message;
    }
    expect(problem).toMatch(/PAYOUT_ADMIN_TOKEN must be at least 32 characters/);
    expect(problem).not.toContain(short);
    expect(loadGatewayConfig({ ...BASE, REDIS_URL: 'redis://cache:6379' }).adminToken).toBe(
      BASE.PAYOUT_ADMIN_TOKEN,
    );
  });
  it('refuses a long token of few different characters, and takes any a generator makes', () => {
    const load = (token: string) => () =>
      loadGatewayConfig({ ...BASE, REDIS_URL: 'redis://cache:6379', PAYOUT_ADMIN_TOKEN: token });
    for (const weak of ['a'.repeat(32), 'ab'.repeat(20), '0123456'.repeat(6)]) {
      expect(load(weak)).toThrow(/PAYOUT_ADMIN_TOKEN must hold at least 8 different characters/);
      expect(load(weak)).not.toThrow(new RegExp(weak));
    }
    // 32 hex digits (openssl rand -hex 16) and 44 base64 characters (openssl rand -base64 32).
    for (const strong of [
      '3f9a0c2d7b1e4f6a8c0d2e4f6a8b0c1d',
      'q2Vb9x+Lr7Wm0kTz3Yp5Hs8Ud1Fa6Ec4Gn2Jo7Ri0Sw=',
    ]) {
      expect(load(strong)().adminToken).toBe(strong);
    }
  });
});
