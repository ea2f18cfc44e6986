// @qr-payout/test-kit/infra: where the tests' PostgreSQL, Redis and Kafka are (docs/testing.md
// "Environment variables the tests read"). Each variable is read once, when a test first asks for
// it, and a missing one fails with what to do instead of a guessed default.

const read = new Map<string, string>();

function required(name: 'DATABASE_URL' | 'REDIS_URL' | 'KAFKA_BROKERS'): string {
  let value = read.get(name);
  if (value === undefined) {
    value = process.env[name];
    if (!value) {
      throw new Error(
        `${name} is not set: integration and e2e tests run against real PostgreSQL, Redis and Kafka. ` +
          'Run them through scripts/with-infra (npm run test:int, npm run test:e2e), which starts them, ' +
          `or export ${name} (docs/testing.md "Running against your own PostgreSQL, Redis or Kafka").`,
      );
    }
    read.set(name, value);
  }
  return value;
}

/** The test infrastructure, read from env on first use. */
export const testInfra = {
  get databaseUrl(): string {
    return required('DATABASE_URL');
  },
  get redisUrl(): string {
    return required('REDIS_URL');
  },
  /** KAFKA_BROKERS split on commas. */
  get kafkaBrokers(): string[] {
    return required('KAFKA_BROKERS').split(',');
  },
};
