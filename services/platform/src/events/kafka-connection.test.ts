import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config';
import { kafkaSettings, readKafkaConnection } from './kafka-connection';

const dir = mkdtempSync(path.join(os.tmpdir(), 'kafka-connection-'));
const CA = path.join(dir, 'ca.crt');
const CERT = path.join(dir, 'client.crt');
const KEY = path.join(dir, 'client.key');
writeFileSync(CA, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
writeFileSync(CERT, '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n');
writeFileSync(KEY, '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n');

const problem = (env: Record<string, string>) => {
  const result = readKafkaConnection(env);
  return result.ok ? undefined : result.problem;
};

describe('readKafkaConnection', () => {
  it('is plaintext without SASL by default', () => {
    expect(readKafkaConnection({})).toEqual({ ok: true, value: { ssl: false } });
  });

  it('verifies the brokers against the system CAs with KAFKA_TLS=true alone, or against the CA file', () => {
    expect(readKafkaConnection({ KAFKA_TLS: 'true' })).toEqual({ ok: true, value: { ssl: true } });
    const withCa = readKafkaConnection({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: CA });
    expect(withCa.ok && withCa.value.ssl).toEqual({ ca: [expect.stringContaining('MIIB')] });
  });

  it('adds a client certificate for mutual TLS, which needs its key', () => {
    const mtls = readKafkaConnection({
      KAFKA_TLS: 'true',
      KAFKA_TLS_CERT_FILE: CERT,
      KAFKA_TLS_KEY_FILE: KEY,
    });
    expect(mtls.ok && mtls.value.ssl).toEqual({
      cert: expect.stringContaining('MIIC'),
      key: expect.stringContaining('MIIE'),
    });
    expect(problem({ KAFKA_TLS: 'true', KAFKA_TLS_CERT_FILE: CERT })).toMatch(/go together/);
  });

  it('authenticates with each SASL mechanism given a user and a password', () => {
    for (const mechanism of ['plain', 'scram-sha-256', 'scram-sha-512', 'SCRAM-SHA-512'])
      expect(
        readKafkaConnection({
          KAFKA_TLS: 'true',
          KAFKA_SASL_MECHANISM: mechanism,
          KAFKA_SASL_USERNAME: 'svc',
          KAFKA_SASL_PASSWORD: 'pw',
        }),
      ).toEqual({
        ok: true,
        value: { ssl: true, sasl: { mechanism: mechanism.toLowerCase(), username: 'svc', password: 'pw' } },
      });
  });

  it('names every problem at once, and never the password', () => {
    const text = problem({
      KAFKA_TLS: 'maybe',
      KAFKA_SASL_MECHANISM: 'gssapi',
      KAFKA_SASL_PASSWORD: 'hunter2-secret',
    });
    expect(text).toMatch(/KAFKA_TLS must be true or false/);
    expect(text).toMatch(/KAFKA_SASL_MECHANISM must be one of none, plain, scram-sha-256, scram-sha-512/);
    expect(text).not.toMatch(/hunter2/);
    expect(problem({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'svc' })).toMatch(
      /needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/,
    );
    expect(problem({ KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: 'pw' })).toMatch(
      /need KAFKA_SASL_MECHANISM/,
    );
  });

  it('refuses files without TLS, and a file it cannot read or that holds no PEM', () => {
    expect(problem({ KAFKA_TLS_CA_FILE: CA })).toMatch(/need KAFKA_TLS=true/);
    expect(problem({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: path.join(dir, 'missing.crt') })).toMatch(
      /KAFKA_TLS_CA_FILE: cannot read .*missing\.crt \(ENOENT\)/,
    );
    const notPem = path.join(dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    expect(problem({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: notPem })).toMatch(/holds no PEM block/);
  });

  it('fails a service config at start with the other bad variables', () => {
    expect(() =>
      loadConfig(kafkaSettings(), {
        KAFKA_BROKERS: 'k:9093',
        KAFKA_TLS: 'true',
        KAFKA_SASL_MECHANISM: 'plain',
      }),
    ).toThrow(/KAFKA_SASL_MECHANISM=plain needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/);
  });
});
