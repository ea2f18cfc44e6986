// How payout and webhook reach a managed Kafka: TLS (the cluster's CA, a client certificate for
// mutual TLS) and SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), as MSK, Confluent Cloud and Strimzi's
// TLS listeners require (docs/architecture.md "Kafka over TLS and SASL"). One reader for every
// variable, so the rules between them (a certificate needs its key, SASL needs a user and a
// password, files need TLS) are checked in one place and reported with the others at start.
import { readFileSync } from 'node:fs';
import { type ConfigReader, type Env, list } from '../config';

export const KAFKA_SASL_MECHANISMS = ['none', 'plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** What kafkajs is given besides its brokers (its `ssl` and `sasl` options). */
export type KafkaConnection = {
  /** false: plaintext; true: TLS, verifying the brokers against the system CAs; or these PEMs. */
  ssl: false | true | { ca?: string[]; cert?: string; key?: string };
  sasl?: { mechanism: Exclude<KafkaSaslMechanism, 'none'>; username: string; password: string };
};

const VARIABLES = [
  'KAFKA_TLS',
  'KAFKA_TLS_CA_FILE',
  'KAFKA_TLS_CERT_FILE',
  'KAFKA_TLS_KEY_FILE',
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
] as const;

function value(env: Env, name: (typeof VARIABLES)[number]): string | undefined {
  const raw = env[name]?.trim();
  return raw === '' ? undefined : raw;
}

/** A PEM file's text, or the problem naming the variable (never the file's content). */
function pem(name: string, file: string, problems: string[]): string | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('-----BEGIN ')) problems.push(`${name}: ${file} holds no PEM block`);
    return text;
  } catch (err) {
    problems.push(`${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return undefined;
  }
}

/** Reads and checks KAFKA_TLS*, KAFKA_SASL_* (see the top of this file). */
export function readKafkaConnection(
  env: Env,
): { ok: true; value: KafkaConnection } | { ok: false; problem: string } {
  const problems: string[] = [];
  const tlsRaw = value(env, 'KAFKA_TLS')?.toLowerCase();
  if (tlsRaw !== undefined && tlsRaw !== 'true' && tlsRaw !== 'false')
    problems.push(`KAFKA_TLS must be true or false (got ${JSON.stringify(tlsRaw)})`);
  const tls = tlsRaw === 'true';
  const caFile = value(env, 'KAFKA_TLS_CA_FILE');
  const certFile = value(env, 'KAFKA_TLS_CERT_FILE');
  const keyFile = value(env, 'KAFKA_TLS_KEY_FILE');
  if (!tls && (caFile || certFile || keyFile))
    problems.push('KAFKA_TLS_CA_FILE, KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE need KAFKA_TLS=true');
  if (Boolean(certFile) !== Boolean(keyFile))
    problems.push(
      'KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE go together (a client certificate and its key)',
    );

  const mechanism = (value(env, 'KAFKA_SASL_MECHANISM')?.toLowerCase() ?? 'none') as KafkaSaslMechanism;
  if (!KAFKA_SASL_MECHANISMS.includes(mechanism))
    problems.push(
      `KAFKA_SASL_MECHANISM must be one of ${KAFKA_SASL_MECHANISMS.join(', ')} (got ${JSON.stringify(mechanism)})`,
    );
  const username = value(env, 'KAFKA_SASL_USERNAME');
  // Secret: never echoed.
  const password = env.KAFKA_SASL_PASSWORD;
  const sasl = mechanism !== 'none' && KAFKA_SASL_MECHANISMS.includes(mechanism);
  if (sasl && (!username || !password))
    problems.push(`KAFKA_SASL_MECHANISM=${mechanism} needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD`);
  if (!sasl && mechanism === 'none' && (username || password))
    problems.push('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD need KAFKA_SASL_MECHANISM');

  let ssl: KafkaConnection['ssl'] = tls;
  if (tls && (caFile || certFile)) {
    const files: { ca?: string[]; cert?: string; key?: string } = {};
    if (caFile) {
      const ca = pem('KAFKA_TLS_CA_FILE', caFile, problems);
      if (ca) files.ca = [ca];
    }
    if (certFile && keyFile) {
      files.cert = pem('KAFKA_TLS_CERT_FILE', certFile, problems);
      files.key = pem('KAFKA_TLS_KEY_FILE', keyFile, problems);
    }
    ssl = files;
  }
  if (problems.length > 0) return { ok: false, problem: problems.join('; ') };
  return {
    ok: true,
    value: {
      ssl,
      ...(sasl
        ? {
            sasl: {
              mechanism: mechanism as Exclude<KafkaSaslMechanism, 'none'>,
              username: username!,
              password: password!,
            },
          }
        : {}),
    },
  };
}

/**
 * The config entries of a service that talks to Kafka, `...kafkaSettings()`: the bootstrap brokers
 * and how to reach them.
 */
export function kafkaSettings(): {
  kafkaBrokers: ConfigReader<string[]>;
  kafkaConnection: ConfigReader<KafkaConnection>;
} {
  return {
    kafkaBrokers: list('KAFKA_BROKERS', { default: ['127.0.0.1:9092'] }),
    kafkaConnection: { name: VARIABLES.join(', '), secret: true, read: readKafkaConnection },
  };
}
