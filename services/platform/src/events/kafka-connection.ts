// How payout and webhook reach a managed Kafka: TLS (the cluster's CA, a client certificate for
// mutual TLS) and SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), as MSK, Confluent Cloud and Strimzi's
// TLS listeners require (docs/architecture.md "Kafka over TLS and SASL"). One reader for every
// variable, so the rules between them (a certificate needs its key, SASL needs a user and a
// password, files need TLS) are checked in one place and reported with the others at start.
import { bool, type ConfigReader, type Env, givenValue, list, oneOf, pemFile, str } from '../config';

export const KAFKA_SASL_MECHANISMS = ['none', 'plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** What kafkajs is given besides its brokers (its `ssl` and `sasl` options). */
export type KafkaConnection = {
  /** false: plaintext; true: TLS, verifying the brokers against the system CAs; or these PEMs. */
  ssl: false | true | { ca?: string[]; cert?: string; key?: string };
  sasl?: { mechanism: Exclude<KafkaSaslMechanism, 'none'>; username: string; password: string };
};

const tlsReaders = {
  tls: bool('KAFKA_TLS', { default: false }),
  ca: pemFile('KAFKA_TLS_CA_FILE', { optional: true }),
  cert: pemFile('KAFKA_TLS_CERT_FILE', { optional: true }),
  key: pemFile('KAFKA_TLS_KEY_FILE', { optional: true }),
};
const saslReaders = {
  mechanism: oneOf('KAFKA_SASL_MECHANISM', KAFKA_SASL_MECHANISMS, { default: 'none' }),
  username: str('KAFKA_SASL_USERNAME', { optional: true }),
  password: str('KAFKA_SASL_PASSWORD', { optional: true, secret: true }),
};

/**
 * Reads and checks KAFKA_TLS*, KAFKA_SASL_* (see the top of this file): each variable by the
 * platform's own readers, then the rules between them.
 */
export function readKafkaConnection(
  env: Env,
): { ok: true; value: KafkaConnection } | { ok: false; problem: string } {
  const problems: string[] = [];
  const read = <T>(reader: ConfigReader<T>, from: Env = env): T | undefined => {
    const result = reader.read(from);
    if (result.ok) return result.value;
    problems.push(result.problem);
    return undefined;
  };
  const tls = read(tlsReaders.tls) === true;
  const ca = read(tlsReaders.ca);
  const cert = read(tlsReaders.cert);
  const key = read(tlsReaders.key);
  if (!tls && [tlsReaders.ca, tlsReaders.cert, tlsReaders.key].some((r) => givenValue(env, r.name)))
    problems.push('KAFKA_TLS_CA_FILE, KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE need KAFKA_TLS=true');
  if (Boolean(givenValue(env, 'KAFKA_TLS_CERT_FILE')) !== Boolean(givenValue(env, 'KAFKA_TLS_KEY_FILE')))
    problems.push(
      'KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE go together (a client certificate and its key)',
    );

  // Mechanism names are case-insensitive (SCRAM-SHA-512 as Kafka writes it).
  const mechanism = read(saslReaders.mechanism, {
    KAFKA_SASL_MECHANISM: env.KAFKA_SASL_MECHANISM?.toLowerCase(),
  });
  const username = read(saslReaders.username);
  const password = read(saslReaders.password);
  if (mechanism && mechanism !== 'none' && (!username || !password))
    problems.push(`KAFKA_SASL_MECHANISM=${mechanism} needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD`);
  if (mechanism === 'none' && (username || password))
    problems.push('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD need KAFKA_SASL_MECHANISM');
  if (problems.length > 0) return { ok: false, problem: problems.join('; ') };

  const files = { ...(ca ? { ca: [ca] } : {}), ...(cert && key ? { cert, key } : {}) };
  return {
    ok: true,
    value: {
      ssl: tls && Object.keys(files).length > 0 ? files : tls,
      ...(mechanism && mechanism !== 'none'
        ? { sasl: { mechanism, username: username!, password: password! } }
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
    kafkaConnection: {
      name: [...Object.values(tlsReaders), ...Object.values(saslReaders)].map((r) => r.name).join(', '),
      secret: true,
      read: readKafkaConnection,
    },
  };
}
