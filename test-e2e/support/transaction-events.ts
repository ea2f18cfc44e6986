// Reads payout.transaction-events.v1 back from the real Kafka, as a downstream consumer would: its
// own consumer group, the TransactionEvent protobuf decoded, key and headers kept, and the arrival
// time of each message recorded (the bench measures commit → Kafka latency from it).
import { randomBytes } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { type TransactionEvent, TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { topicSettingsFor } from '@qr-payout/test-kit/kafka-topics';
import { type IHeaders, Kafka, logLevel } from 'kafkajs';

export interface ReceivedTransactionEvent {
  key: string;
  headers: Record<string, string>;
  event: TransactionEvent;
  /** Date.now() when the consumer handed the message over. */
  receivedAtMs: number;
  partition: number;
  offset: string;
}

export interface TransactionEventReader {
  /** Every event read since start, in arrival order. */
  readonly events: readonly ReceivedTransactionEvent[];
  /** The events whose key is this transaction id. */
  eventsOf(transactionId: string): ReceivedTransactionEvent[];
  /** Resolves with the transaction's events once there is at least one, or rejects at the deadline. */
  waitForEvents(transactionId: string, timeoutMs: number): Promise<ReceivedTransactionEvent[]>;
  /** Resolves once `count` events have been read in all, or rejects at the deadline. */
  waitForCount(count: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

function headersToRecord(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[name] = first.toString();
  }
  return out;
}

async function until(predicate: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`${what()} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts a consumer in a fresh group positioned at the topic's current end: it sees every event
 * published after this resolves and none of earlier runs (the topic is shared by every run on
 * this Kafka). The group's start offsets are committed before it joins, so no event published
 * while the group is still joining is skipped (a "latest" reset could skip those).
 */
export async function startTransactionEventReader(
  brokers: string[],
  topic = TRANSACTION_EVENTS_TOPIC,
): Promise<TransactionEventReader> {
  const kafka = new Kafka({
    clientId: 'e2e-event-reader',
    brokers,
    logLevel: logLevel.NOTHING,
  });
  const groupId = `e2e-event-reader-${randomBytes(6).toString('hex')}`;
  const admin = kafka.admin();
  await admin.connect();
  // Payout's producer may not have created the topic yet on a fresh broker. On a cluster of three
  // (scripts/infra KAFKA_NODES=3), production's replication: 3, min ISR 2 (topicSettingsFor).
  const { replicationFactor, configEntries = {} } = topicSettingsFor(
    (await admin.describeCluster()).brokers.length,
  );
  await admin
    .createTopics({
      topics: [
        {
          topic,
          numPartitions: 3,
          ...(replicationFactor === undefined ? {} : { replicationFactor }),
          configEntries: Object.entries(configEntries).map(([name, value]) => ({ name, value })),
        },
      ],
      waitForLeaders: true,
    })
    .catch(async (err: { type?: string }) => {
      // On a cluster the broker asked for the new topic's leaders may not know it yet; it soon will.
      if (err.type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw err;
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
  const ends = await admin.fetchTopicOffsets(topic);
  await admin.setOffsets({
    groupId,
    topic,
    partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })),
  });

  const events: ReceivedTransactionEvent[] = [];
  const byKey = new Map<string, ReceivedTransactionEvent[]>();
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 50 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: false });
  const joined = new Promise<void>((resolve) => {
    consumer.on(consumer.events.GROUP_JOIN, () => resolve());
  });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const received: ReceivedTransactionEvent = {
        key: message.key?.toString() ?? '',
        headers: headersToRecord(message.headers),
        event: fromBinary(TransactionEventSchema, message.value ?? new Uint8Array()),
        receivedAtMs: Date.now(),
        partition,
        offset: message.offset,
      };
      events.push(received);
      const list = byKey.get(received.key);
      if (list) list.push(received);
      else byKey.set(received.key, [received]);
    },
  });
  await joined;

  return {
    events,
    eventsOf: (transactionId) => [...(byKey.get(transactionId) ?? [])],
    async waitForEvents(transactionId, timeoutMs) {
      await until(
        () => (byKey.get(transactionId)?.length ?? 0) > 0,
        timeoutMs,
        () => `no event for ${transactionId} on ${topic}`,
      );
      return [...(byKey.get(transactionId) ?? [])];
    },
    waitForCount: (count, timeoutMs) =>
      until(
        () => events.length >= count,
        timeoutMs,
        () => `${events.length} of ${count} events on ${topic}`,
      ),
    async stop() {
      await consumer.disconnect();
      await admin.deleteGroups([groupId]).catch(() => undefined);
      await admin.disconnect();
    },
  };
}
