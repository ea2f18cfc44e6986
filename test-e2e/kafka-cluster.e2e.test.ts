// Production runs three Kafka brokers with the events topic at replication 3 and
// min.insync.replicas 2, and our producer sends with acks=-1, idempotent (services/platform README
// "Events: `events`"). On the three-node KRaft cluster of scripts/infra (docs/testing.md "Kafka as
// a three-node cluster"), private to this file: the topic really has those settings, and
// while the platform bus publishes without pause, a broker and then the active controller are
// killed with kill -9 and started again; every publish the bus acknowledged (a batch over every
// partition, as the outbox relay's) is read back by a consumer group. A publish may fail while a node is down (its message then counts as not
// acknowledged, and the next publish carries a new message, never the failed one again).
import { type BusMessage, createKafkaBus, TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { silentLogger } from '@qr-payout/platform/log';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { type PrivateInfra, startPrivateInfra } from './faults/private-infra';

const TOPIC = TRANSACTION_EVENTS_TOPIC;
const PUBLISHERS = 4; // concurrent publish loops sharing the bus's one producer
const BATCH = 8; // messages per publish, over several partitions
const DOWN_MS = 2000; // how long a killed node stays down
const STEADY_MS = 3000; // publishing with every node up, before, between and after the kills

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `fn`'s result once it stops throwing, or its last error after 10 s. */
async function eventually<T>(fn: () => Promise<T>): Promise<T> {
  for (const deadline = Date.now() + 10_000; ; await sleep(200)) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}
const print = (line: string) => process.stdout.write(`kafka-cluster: ${line}\n`);

let infra: PrivateInfra;
let brokers: string[];

beforeAll(async () => {
  infra = await startPrivateInfra(print, { kafkaNodes: 3 });
  brokers = infra.kafkaBrokers.split(',');
}, 150_000);

afterAll(async () => {
  await infra?.stop();
}, 90_000);

it('creates the events topic with replication factor 3 and min.insync.replicas 2', async () => {
  expect(brokers).toHaveLength(3);
  const admin = new Kafka({ clientId: 'kafka-cluster-check', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    expect((await admin.describeCluster()).brokers.map((b) => b.nodeId).sort()).toEqual([1, 2, 3]);
    // A broker learns of a new topic a moment after the one that created it: ask until all answer.
    const { metadata, resources } = await eventually(async () => ({
      metadata: (await admin.fetchTopicMetadata({ topics: [TOPIC] })).topics[0],
      resources: (
        await admin.describeConfigs({
          includeSynonyms: false,
          resources: [{ type: ConfigResourceTypes.TOPIC, name: TOPIC, configNames: ['min.insync.replicas'] }],
        })
      ).resources,
    }));
    expect(metadata?.partitions).toHaveLength(3);
    for (const partition of metadata!.partitions) {
      expect(partition.replicas).toHaveLength(3);
      expect(partition.isr).toHaveLength(3);
    }
    const minIsr = resources[0]?.configEntries.find((c) => c.configName === 'min.insync.replicas');
    expect(minIsr?.configValue).toBe('2');
    // Set on the topic itself, not inherited from the brokers' default.
    expect(minIsr?.isDefault).toBe(false);
  } finally {
    await admin.disconnect();
  }
}, 30_000);

it('loses no acknowledged event while a broker and then the controller are killed', async () => {
  const started = Date.now();
  const run = `run-${started}`;
  const producerBus = createKafkaBus({ brokers, clientId: 'kafka-cluster-producer', logger: silentLogger() });
  const consumerBus = createKafkaBus({ brokers, clientId: 'kafka-cluster-consumer', logger: silentLogger() });

  const consumed = new Set<string>();
  let deliveries = 0;
  // A broker may learn of the just-created topic a moment after the one that created it answered
  // ("does not host this topic-partition"): subscribing is retried, as the dispatcher's is.
  const subscription = await eventually(() =>
    consumerBus.subscribe({
      topic: TOPIC,
      groupId: `kafka-cluster-${started}`,
      // A group whose coordinator was killed settles sooner than with kafkajs' 30 s.
      sessionTimeoutMs: 10_000,
      handleBatch: async (batch: BusMessage[]) => {
        for (const message of batch) {
          const id = Buffer.from(message.value).toString();
          if (!id.startsWith(run)) continue;
          deliveries += 1;
          consumed.add(id);
        }
      },
    }),
  );

  const acknowledged = new Set<string>();
  const notAcknowledged = new Set<string>();
  let next = 0;
  let publishing = true;
  let lastAck = Date.now();
  let longestAckGapMs = 0;
  let longestPublishMs = 0;
  const errors = new Map<string, number>();
  // Each publish is a batch over several keys, so over every partition and every leader, as the
  // outbox relay's are: the case kafkajs alone loses when a leader changes mid-send (producer.ts
  // `byPartition`).
  const publisher = async () => {
    while (publishing) {
      const ids = Array.from({ length: BATCH }, () => `${run}-${next++}`);
      const sent = Date.now();
      try {
        await producerBus.publish(
          TOPIC,
          ids.map((id) => ({ key: `key-${id}`, value: new TextEncoder().encode(id), headers: {} })),
        );
        for (const id of ids) acknowledged.add(id);
        const now = Date.now();
        longestAckGapMs = Math.max(longestAckGapMs, now - lastAck);
        lastAck = now;
      } catch (err) {
        for (const id of ids) notAcknowledged.add(id);
        const name = err instanceof Error ? err.name : String(err);
        errors.set(name, (errors.get(name) ?? 0) + 1);
        await sleep(100);
      } finally {
        longestPublishMs = Math.max(longestPublishMs, Date.now() - sent);
      }
    }
  };
  const publishers = Array.from({ length: PUBLISHERS }, () => publisher());
  const counts = () =>
    `acknowledged ${acknowledged.size}, failed publishes ${notAcknowledged.size}, consumed ${consumed.size}`;

  try {
    await sleep(STEADY_MS);
    // First a broker that is not the controller, then whichever node is the controller now.
    const controller = await infra.controllerNode();
    const broker = (controller + 1) % 3;
    print(`killing node ${broker} (node.id ${broker + 1}), not the controller; ${counts()}`);
    await infra.killKafkaNode(broker, DOWN_MS);
    await sleep(STEADY_MS);
    const controllerNow = await infra.controllerNode();
    print(`killing node ${controllerNow} (node.id ${controllerNow + 1}), the active controller; ${counts()}`);
    await infra.killKafkaNode(controllerNow, DOWN_MS);
    const elected = await infra.controllerNode();
    print(`controller now node ${elected} (node.id ${elected + 1})`);
    expect(elected).not.toBe(controllerNow);
    await sleep(STEADY_MS);
  } finally {
    publishing = false;
    await Promise.all(publishers);
  }

  const publishedAt = Date.now();
  const deadline = publishedAt + 60_000;
  while ([...acknowledged].some((id) => !consumed.has(id)) && Date.now() < deadline) await sleep(200);
  const drainMs = Date.now() - publishedAt;
  await subscription.stop();
  await Promise.all([producerBus.close(), consumerBus.close()]);

  const lost = [...acknowledged].filter((id) => !consumed.has(id));
  const failedButWritten = [...notAcknowledged].filter((id) => consumed.has(id)).length;
  print(
    `${counts()}, lost ${lost.length}, failed but written anyway ${failedButWritten}, ` +
      `deliveries ${deliveries} (redelivered ${deliveries - consumed.size}), ` +
      `longest gap between acknowledgements ${longestAckGapMs} ms, longest publish ${longestPublishMs} ms, ` +
      `consumer caught up ${drainMs} ms after the last publish, ` +
      `errors ${JSON.stringify(Object.fromEntries(errors))}, test ${Date.now() - started} ms`,
  );
  if (lost.length > 0) {
    // Lost by the cluster, or missed by the group? Read the whole topic again with a fresh group.
    const inLog = await readTopic(run);
    print(
      `not consumed: ${lost.slice(0, 10).join(', ')}; in the log: ` +
        lost
          .slice(0, 10)
          .map((id) => `${id} ${inLog.get(id) ?? 'absent'}`)
          .join(', '),
    );
  }
  expect(acknowledged.size).toBeGreaterThan(100);
  expect(lost.slice(0, 10)).toEqual([]);
  expect(lost).toHaveLength(0);
}, 150_000);

/** Every message of this run on the topic, id → "partition/offset", read from the start. */
async function readTopic(run: string): Promise<Map<string, string>> {
  const kafka = new Kafka({ clientId: 'kafka-cluster-audit', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(TOPIC);
  await admin.disconnect();
  const found = new Map<string, string>();
  const reached = new Map<number, number>();
  const consumer = kafka.consumer({ groupId: `kafka-cluster-audit-${Date.now()}` });
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const id = message.value?.toString() ?? '';
      if (id.startsWith(run)) found.set(id, `${partition}/${message.offset}`);
      reached.set(partition, Number(message.offset) + 1);
    },
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !ends.every((e) => (reached.get(e.partition) ?? 0) >= Number(e.high))) {
    await sleep(200);
  }
  await consumer.disconnect();
  return found;
}
