// Readiness probe used by scripts/infra: one real request against a service, retried until a deadline.
// Usage: node scripts/lib/probe.js pg|redis|kafka|kafka-cluster <url-or-brokers> [timeoutSeconds]
// Exits 0 once the service answers (pg: select 1, redis: PING, kafka: admin listTopics, kafka-cluster:
// every listed broker registered and a controller), 1 on timeout.
// Plain CommonJS so it runs on any node without tsx; the clients come from the repo's node_modules.

const [kind, target, timeoutArg] = process.argv.slice(2);
const deadline = Date.now() + Number(timeoutArg ?? 60) * 1000;

async function probePg(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => {});
  }
}

async function probeRedis(url) {
  const Redis = require('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: null,
  });
  // Failures surface through connect()/ping(); the error event would only print noise.
  redis.on('error', () => {});
  try {
    await redis.connect();
    const pong = await redis.ping();
    if (pong !== 'PONG') throw new Error(`unexpected PING reply ${pong}`);
  } finally {
    redis.disconnect();
  }
}

// A kafkajs admin that fails fast: a probe retries on its own schedule.
function probeAdmin(brokers) {
  const { Kafka, logLevel } = require('kafkajs');
  const kafka = new Kafka({
    clientId: 'infra-probe',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2000,
    retry: { retries: 0 },
  });
  return kafka.admin();
}

async function probeKafka(brokers) {
  const admin = probeAdmin(brokers.split(','));
  try {
    await admin.connect();
    await admin.listTopics();
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

// A cluster (scripts/infra with KAFKA_NODES=3): ready once the metadata lists as many brokers as
// the list names, and a controller. A node registers only through the active KRaft controller, so all
// of them listed means the quorum has elected a leader.
async function probeKafkaCluster(brokers) {
  const expected = brokers.split(',');
  const admin = probeAdmin(expected);
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    if (cluster.brokers.length < expected.length) {
      throw new Error(`${cluster.brokers.length} of ${expected.length} brokers registered`);
    }
    if (cluster.controller === null || cluster.controller < 0) throw new Error('no controller yet');
    await admin.listTopics();
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

const probes = { pg: probePg, redis: probeRedis, kafka: probeKafka, 'kafka-cluster': probeKafkaCluster };

async function main() {
  const probe = probes[kind];
  if (!probe || !target) {
    console.error('usage: probe.js pg|redis|kafka|kafka-cluster <url-or-brokers> [timeoutSeconds]');
    process.exit(2);
  }
  let lastError;
  while (Date.now() < deadline) {
    try {
      await probe(target);
      process.exit(0);
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  console.error(`probe ${kind}: not ready before the deadline: ${lastError?.message ?? 'no attempt'}`);
  process.exit(1);
}

main();
