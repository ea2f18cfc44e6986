// Kafka for the webhooks bench: a dispatcher group positioned at the topic's end before the webhook
// service joins it (a new group would otherwise start at the shared topic's earliest event and
// replay every earlier run's events first), and a producer that publishes events as payout's relay
// does (key = transaction id, headers event-id and event-type, acks from all replicas).
import { TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';

export function brokersFromEnv(): string[] {
  const raw = process.env.KAFKA_BROKERS;
  if (!raw) throw new Error('KAFKA_BROKERS is not set (npm run bench starts the infrastructure)');
  return raw.split(',');
}

function kafkaClient(brokers: string[], clientId: string): Kafka {
  return new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING });
}

/** Commits `groupId`'s offsets at the topic's current end, so its first member starts there. */
export async function positionGroupAtEnd(brokers: string[], groupId: string): Promise<void> {
  const admin = kafkaClient(brokers, 'bench-webhooks-admin').admin();
  await admin.connect();
  try {
    // On a fresh broker the topic may not exist yet (payout's producer creates it on first use).
    await admin.createTopics({
      topics: [{ topic: TRANSACTION_EVENTS_TOPIC, numPartitions: 3 }],
      waitForLeaders: true,
    });
    const ends = await admin.fetchTopicOffsets(TRANSACTION_EVENTS_TOPIC);
    await admin.setOffsets({
      groupId,
      topic: TRANSACTION_EVENTS_TOPIC,
      partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })),
    });
  } finally {
    await admin.disconnect();
  }
}

/** Deletes the consumer groups a run made (they hold no more than offsets; best effort). */
export async function deleteGroups(brokers: string[], groupIds: string[]): Promise<void> {
  const admin = kafkaClient(brokers, 'bench-webhooks-admin').admin();
  await admin.connect();
  try {
    await admin.deleteGroups(groupIds).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

/** How many partitions the transaction-events topic has (the dispatcher's parallelism ceiling). */
export async function topicPartitions(brokers: string[]): Promise<number> {
  const admin = kafkaClient(brokers, 'bench-webhooks-admin').admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(TRANSACTION_EVENTS_TOPIC)).length;
  } finally {
    await admin.disconnect();
  }
}

export interface EventPublisher {
  /** Publishes the messages in batches; returns, per message, the epoch ms its batch was sent at. */
  publish(
    messages: Array<{ key: string; value: Buffer; headers: Record<string, string> }>,
    batchSize: number,
  ): Promise<number[]>;
  close(): Promise<void>;
}

export async function startPublisher(brokers: string[]): Promise<EventPublisher> {
  const producer: Producer = kafkaClient(brokers, 'bench-webhooks-producer').producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  return {
    async publish(messages, batchSize) {
      const sentAt: number[] = [];
      for (let start = 0; start < messages.length; start += batchSize) {
        const batch = messages.slice(start, start + batchSize);
        const at = performance.timeOrigin + performance.now();
        for (let i = 0; i < batch.length; i++) sentAt.push(at);
        await producer.send({ topic: TRANSACTION_EVENTS_TOPIC, acks: -1, messages: batch });
      }
      return sentAt;
    },
    close: () => producer.disconnect(),
  };
}
