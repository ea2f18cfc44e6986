// The migration Job's provisioning of the events topic (src/outbox/topic.ts), against the test
// Kafka (one broker, so replication above 1 cannot be had): created when missing with the given
// partitions and min.insync.replicas, left as it is when present, its shortfalls reported.
import { randomBytes } from 'node:crypto';
import { silentLogger } from '@qr-payout/platform/log';
import { provisionEventsTopic } from '../src/outbox/topic';
import { type KafkaBus, kafkaBus } from './support/outbox';

jest.setTimeout(60_000);

let bus: KafkaBus;
const topics: string[] = [];

beforeAll(() => {
  bus = kafkaBus('payout-events-topic-test');
});

afterAll(async () => {
  if (topics.length > 0) await bus.deleteTopics(topics).catch(() => undefined);
  await bus.close();
});

function newTopic(): string {
  const topic = `events-topic-test-${randomBytes(4).toString('hex')}`;
  topics.push(topic);
  return topic;
}

test('creates a missing topic with the partitions, replication and min.insync.replicas asked for', async () => {
  const topic = newTopic();
  const first = await provisionEventsTopic(
    bus,
    { topic, partitions: 4, replicationFactor: 1, minInsyncReplicas: 1 },
    silentLogger(),
  );
  expect(first).toEqual({
    created: true,
    found: { partitions: 4, replicationFactor: 1, minInsyncReplicas: 1 },
    shortfalls: [],
  });
  // Again (every upgrade runs the Job): nothing created, nothing to report.
  const again = await provisionEventsTopic(
    bus,
    { topic, partitions: 4, replicationFactor: 1, minInsyncReplicas: 1 },
    silentLogger(),
  );
  expect(again.created).toBe(false);
  expect(again.shortfalls).toEqual([]);
});

test('leaves an existing topic as it is and reports what it lacks', async () => {
  const topic = newTopic();
  await bus.ensureTopics([topic], 1);
  const result = await provisionEventsTopic(
    bus,
    { topic, partitions: 6, replicationFactor: 3, minInsyncReplicas: 2 },
    silentLogger(),
  );
  expect(result.created).toBe(false);
  expect(result.found).toEqual({ partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 });
  expect(result.shortfalls).toEqual([
    '1 partitions, fewer than 6: dispatcher replicas beyond 1 sit idle',
    'replication factor 1, below 3: a lost broker can lose acknowledged events',
    'min.insync.replicas 1, below 2: an acknowledged event may live on one broker only',
  ]);
});

test('fails, naming the cause, when the cluster cannot hold the replication asked for', async () => {
  const topic = newTopic();
  await expect(
    provisionEventsTopic(
      bus,
      { topic, partitions: 3, replicationFactor: 3, minInsyncReplicas: 2 },
      silentLogger(),
    ),
  ).rejects.toThrow(/replication factor|Replication factor|INVALID_REPLICATION_FACTOR/i);
});
