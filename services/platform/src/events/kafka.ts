import {
  type Admin,
  ConfigResourceTypes,
  type Consumer,
  type EachBatchPayload,
  type IHeaders,
  Kafka,
  type KafkaConfig,
  type LogEntry,
  logLevel,
  type SASLOptions,
} from 'kafkajs';
import type { Logger } from '../logger';
import {
  type BusMessage,
  batchHandlerOf,
  type EventBus,
  type SubscribeOptions,
  type Subscription,
} from './bus';
import type { KafkaConnection } from './kafka-connection';
import { installKafkajsIdleTimerFix } from './kafkajs-idle-timer';
import { producerGenerations } from './producer';
import { inConsumerSpans, startPublishSpans } from './trace';

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

function headersToRecord(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[key] = first.toString();
  }
  return out;
}

/**
 * Until every partition of `topics` has a leader; retriable errors (a topic not known yet) retry.
 * On a cluster the other brokers may learn of a new topic a moment later: clients retry that.
 */
async function waitForTopicLeaders(admin: Admin, topics: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const metadata = await admin.fetchTopicMetadata({ topics });
      const partitions = metadata.topics.flatMap((topic) => topic.partitions);
      if (metadata.topics.length === topics.length && partitions.every((p) => p.leader >= 0)) return;
    } catch (err) {
      if (!(err as { retriable?: boolean }).retriable || Date.now() > deadline) throw err;
    }
    if (Date.now() > deadline) throw new Error(`no leader for every partition of ${topics.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * admin.createTopics, whose failure says what each topic met: kafkajs rejects with "Topic creation
 * errors" and keeps the causes (an invalid replication factor, a policy) in `errors`.
 */
async function createTopicsNamingErrors(
  admin: Admin,
  options: Parameters<Admin['createTopics']>[0],
): Promise<void> {
  try {
    await admin.createTopics(options);
  } catch (err) {
    const causes = (err as { errors?: Array<{ topic?: string; message?: string; type?: string }> }).errors;
    if (!Array.isArray(causes) || causes.length === 0) throw err;
    const detail = causes
      .map((c) => `${c.topic ?? '?'}: ${c.type ?? ''} ${c.message ?? ''}`.trim())
      .join('; ');
    throw new Error(`creating Kafka topics failed: ${detail}`, { cause: err });
  }
}

/** How a topic is created beyond its partitions (ensureTopics); unset: the broker's defaults. */
export type TopicSettings = {
  replicationFactor?: number;
  /** Topic configs, e.g. `{ 'min.insync.replicas': '2' }`. */
  configEntries?: Record<string, string>;
};

export type TopicDescription = { partitions: number; replicationFactor: number; minInsyncReplicas: number };

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

/** How long a topic's partition count is trusted before it is asked again (publish). */
const PARTITION_COUNT_TTL_MS = 60_000;

/** Creates the topics that do not exist yet, then waits until every broker knows their leaders. */
async function createTopics(
  kafka: Kafka,
  topics: string[],
  partitions: number,
  settings: TopicSettings,
): Promise<void> {
  const { replicationFactor, configEntries } = settings;
  const admin = kafka.admin();
  await admin.connect();
  try {
    await createTopicsNamingErrors(admin, {
      // kafkajs' own wait asks one broker, which on a cluster may not know the new topic yet
      // ("does not host this topic-partition"): waitForTopicLeaders polls until all do.
      waitForLeaders: false,
      topics: topics.map((topic) => ({
        topic,
        numPartitions: partitions,
        ...(replicationFactor === undefined ? {} : { replicationFactor }),
        ...(configEntries === undefined
          ? {}
          : { configEntries: Object.entries(configEntries).map(([name, value]) => ({ name, value })) }),
      })),
    });
    await waitForTopicLeaders(admin, topics);
  } finally {
    await admin.disconnect();
  }
}

/**
 * kafkajs' eachBatch for one subscription: the fetched batch in slices of `maxBatchSize`, each
 * handled in its consumer spans, then its offset committed (at-least-once: never before the
 * handler succeeded).
 */
function committingBatchHandler(sub: {
  consumer: Consumer;
  groupId: string;
  handleBatch: (messages: BusMessage[]) => Promise<void>;
  maxBatchSize: number;
  logger: Logger;
}): (payload: EachBatchPayload) => Promise<void> {
  const { consumer, groupId, handleBatch, maxBatchSize, logger } = sub;
  return async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
    const { topic: from, partition } = batch;
    for (let start = 0; start < batch.messages.length; start += maxBatchSize) {
      if (!isRunning() || isStale()) return;
      const slice = batch.messages.slice(start, start + maxBatchSize);
      const received: BusMessage[] = slice.map((message) => ({
        key: message.key?.toString() ?? '',
        value: message.value ? new Uint8Array(message.value) : new Uint8Array(),
        headers: headersToRecord(message.headers),
      }));
      const last = slice[slice.length - 1]!.offset;
      try {
        await inConsumerSpans(from, groupId, received, 'kafka', handleBatch);
      } catch (err) {
        // Not committed: kafkajs retries, then restarts the consumer at the same offset.
        logger.error(
          {
            err,
            topic: from,
            partition,
            offset: slice[0]!.offset,
            count: slice.length,
            group: groupId,
          },
          'event handler failed',
        );
        throw err;
      }
      // At-least-once: the offset moves only after the handler succeeded.
      resolveOffset(last);
      await consumer.commitOffsets([{ topic: from, partition, offset: (BigInt(last) + 1n).toString() }]);
      // Which offsets a group handled and committed, by event id (LOG_LEVEL=debug): what an
      // operator greps when an event is missing downstream (docs/runbooks.md "Webhook consumer lag").
      logger.debug(
        {
          topic: from,
          partition,
          group: groupId,
          first: slice[0]!.offset,
          last,
          event_ids: received.map((m) => m.headers['event-id'] ?? ''),
        },
        'event batch handled and committed',
      );
      await heartbeat();
    }
  };
}

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
  // One admin connection for what the bus asks of the cluster: consumer lag, partition counts.
  let sharedAdmin: Promise<Admin> | undefined;
  const admin = (): Promise<Admin> => {
    sharedAdmin ??= (async () => {
      const created = kafka.admin();
      await created.connect();
      return created;
    })().catch((err: unknown) => {
      sharedAdmin = undefined;
      throw err;
    });
    return sharedAdmin;
  };
  // A topic's partitions as the cluster lists them; undefined when it does not exist (asked first:
  // kafkajs retries a missing topic's metadata for seconds).
  const topicPartitions = async (topic: string) => {
    const cluster = await admin();
    if (!(await cluster.listTopics()).includes(topic)) return undefined;
    const { topics } = await cluster.fetchTopicMetadata({ topics: [topic] });
    return topics[0]?.partitions ?? [];
  };
  // Each topic's partition count, asked again after PARTITION_COUNT_TTL_MS (a topic can grow). A
  // missing topic is not remembered: the send that creates it is followed by split sends at once.
  const partitionCounts = new Map<string, { count: number; at: number }>();
  const partitionCount = async (topic: string): Promise<number | undefined> => {
    const known = partitionCounts.get(topic);
    if (known && Date.now() - known.at < PARTITION_COUNT_TTL_MS) return known.count;
    const count = (await topicPartitions(topic))?.length;
    if (!count) return undefined;
    partitionCounts.set(topic, { count, at: Date.now() });
    return count;
  };
  const producer = producerGenerations(kafka, partitionCount);
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

    partitionCount,

    async describeTopic(topic) {
      const partitions = await topicPartitions(topic);
      if (!partitions) return undefined;
      const configs = await (await admin()).describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['min.insync.replicas'] }],
      });
      const minIsr = configs.resources[0]?.configEntries.find((e) => e.configName === 'min.insync.replicas');
      return {
        partitions: partitions.length,
        replicationFactor: partitions[0]?.replicas.length ?? 0,
        minInsyncReplicas: Number(minIsr?.configValue ?? 1),
      };
    },

    async groupMembers(groupId) {
      const cluster = await admin();
      const { groups } = await cluster.describeGroups([groupId]);
      return groups[0]?.members.length ?? 0;
    },

    async deleteTopics(topics) {
      const admin = kafka.admin();
      await admin.connect();
      try {
        await admin.deleteTopics({ topics });
      } finally {
        await admin.disconnect();
      }
    },

    async consumerLag(groupId, topic) {
      const cluster = await admin();
      // A topic nothing has published to yet holds no event to be behind on. Asked first because
      // kafkajs retries a missing topic's offsets for seconds, longer than a metrics scrape waits.
      if (!(await cluster.listTopics()).includes(topic)) return 0;
      const [ends, [committed]] = await Promise.all([
        cluster.fetchTopicOffsets(topic),
        cluster.fetchOffsets({ groupId, topics: [topic] }),
      ]);
      const committedByPartition = new Map(
        (committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]),
      );
      let lag = 0;
      for (const end of ends) {
        const at = committedByPartition.get(end.partition) ?? -1;
        // -1: nothing committed yet; the group starts from the partition's earliest offset.
        const from = at >= 0 ? at : Number(end.low);
        lag += Math.max(0, Number(end.high) - from);
      }
      return lag;
    },

    async close() {
      const opened = sharedAdmin;
      sharedAdmin = undefined;
      if (opened) await (await opened.catch(() => undefined))?.disconnect();
      await Promise.all([...consumers].map((consumer) => consumer.disconnect()));
      consumers.clear();
      await producer.close();
    },
  };
}
