import { type Consumer, Kafka, type KafkaConfig, type LogEntry, logLevel, type SASLOptions } from 'kafkajs';
import type { Logger } from '../logger';
import { batchHandlerOf, type EventBus, type SubscribeOptions, type Subscription } from './bus';
import {
  createClusterQueries,
  createTopics,
  deleteTopics,
  type TopicDescription,
  type TopicSettings,
} from './kafka-admin';
import type { KafkaConnection } from './kafka-connection';
import { committingBatchHandler } from './kafka-consume';
import { installKafkajsIdleTimerFix } from './kafkajs-idle-timer';
import { producerGenerations } from './producer';
import { startPublishSpans } from './trace';

export type { TopicDescription, TopicSettings } from './kafka-admin';

type KafkaBusOptions = {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** TLS and SASL (KAFKA_TLS*, KAFKA_SASL_*: kafka-connection.ts); plaintext when absent. */
  connection?: KafkaConnection;
  /** Other kafkajs connection options (timeouts) passed through. */
  kafka?: Omit<KafkaConfig, 'brokers' | 'clientId' | 'logCreator' | 'logLevel' | 'ssl' | 'sasl'>;
};

// kafkajs logs through our logger, warnings and errors only (its info level is chatty).
function logCreatorFor(logger: Logger) {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, ...extra } = log;
      const line = { kafka: namespace, ...extra };
      if (level === logLevel.ERROR) logger.error(line, message);
      else if (level === logLevel.WARN) logger.warn(line, message);
      else logger.debug(line, message);
    };
}

export type KafkaBus = EventBus & {
  /**
   * Creates the topics that do not exist yet (tests, local setups, and payout's migration Job for
   * the events topic: services/payout/src/outbox/topic.ts),
   * with `partitions` (default 3) and `settings` (default: the broker's replication and configs;
   * `topicSettingsFor` gives production's). An existing topic is left as it is.
   */
  ensureTopics(topics: string[], partitions?: number, settings?: TopicSettings): Promise<void>;
  /** Deletes topics (test cleanup). */
  deleteTopics(topics: string[]): Promise<void>;
  /**
   * A topic as the cluster has it: partitions, replicas of its first partition, and its
   * min.insync.replicas (the topic's or the broker's default); undefined when it does not exist.
   */
  describeTopic(topic: string): Promise<TopicDescription | undefined>;
  /**
   * A topic's partition count (undefined when it does not exist), cached for a minute: what the
   * publish path splits sends by.
   */
  partitionCount(topic: string): Promise<number | undefined>;
  /** How many consumers the group has now (0 when it has none, or does not exist). */
  groupMembers(groupId: string): Promise<number>;
  /**
   * How far `groupId` is behind on `topic`: the end offset minus the group's committed offset,
   * summed over the partitions (a partition the group never committed counts from its start; a
   * topic that does not exist yet, 0).
   * One admin connection, kept until close (the webhook's consumer-lag gauge).
   */
  consumerLag(groupId: string, topic: string): Promise<number>;
};

/** The EventBus over Kafka: idempotent producer (acks -1), commit after handle, traced. */
export function createKafkaBus(opts: KafkaBusOptions): KafkaBus {
  installKafkajsIdleTimerFix();
  const { logger } = opts;
  const kafka = new Kafka({
    ...opts.kafka,
    ssl: opts.connection?.ssl ?? false,
    // kafkajs types SASL per mechanism; ours is one of its three user/password ones.
    ...(opts.connection?.sasl ? { sasl: opts.connection.sasl as SASLOptions } : {}),
    brokers: opts.brokers,
    clientId: opts.clientId,
    logLevel: logLevel.WARN,
    logCreator: logCreatorFor(logger),
  });
  const cluster = createClusterQueries(kafka);
  const producer = producerGenerations(kafka, cluster.partitionCount);
  const consumers = new Set<Consumer>();

  return {
    async publish(topic, messages, publishOptions = {}) {
      if (messages.length === 0) return;
      const spans = startPublishSpans(topic, messages, 'kafka');
      try {
        // A failed or late send retires its producer (producer.ts).
        await producer.send(
          {
            topic,
            acks: -1,
            messages: messages.map((message, i) => ({
              key: message.key,
              value: Buffer.from(message.value.buffer, message.value.byteOffset, message.value.byteLength),
              headers: spans.headers[i],
            })),
          },
          publishOptions.timeoutMs,
        );
        spans.end();
      } catch (err) {
        spans.end(err);
        throw err;
      }
    },

    async subscribe(opts: SubscribeOptions): Promise<Subscription> {
      const { topic, groupId, fromBeginning = true, sessionTimeoutMs } = opts;
      const { handleBatch, maxBatchSize } = batchHandlerOf(opts);
      const consumer = kafka.consumer({
        groupId,
        ...(sessionTimeoutMs
          ? { sessionTimeout: sessionTimeoutMs, heartbeatInterval: Math.floor(sessionTimeoutMs / 3) }
          : {}),
      });
      consumers.add(consumer);
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        // Partitions are independent: their batches are handled side by side.
        partitionsConsumedConcurrently: 3,
        eachBatch: committingBatchHandler({ consumer, groupId, handleBatch, maxBatchSize, logger }),
      });
      return {
        async stop() {
          if (!consumers.delete(consumer)) return;
          await consumer.disconnect();
        },
      };
    },

    ensureTopics: (topics, partitions = 3, settings: TopicSettings = {}) =>
      createTopics(kafka, topics, partitions, settings),
    deleteTopics: (topics) => deleteTopics(kafka, topics),
    partitionCount: cluster.partitionCount,
    describeTopic: cluster.describeTopic,
    groupMembers: cluster.groupMembers,
    consumerLag: cluster.consumerLag,

    async close() {
      await cluster.close();
      await Promise.all([...consumers].map((consumer) => consumer.disconnect()));
      consumers.clear();
      await producer.close();
    },
  };
}
