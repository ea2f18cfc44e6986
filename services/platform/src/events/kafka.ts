import {
  type Admin,
  type Consumer,
  type IHeaders,
  Kafka,
  type KafkaConfig,
  type LogEntry,
  logLevel,
  Partitioners,
  type Producer,
} from 'kafkajs';
import type { Logger } from '../logger';
import {
  type BusMessage,
  batchHandlerOf,
  type EventBus,
  type SubscribeOptions,
  type Subscription,
} from './bus';
import { inConsumerSpans, startPublishSpans } from './trace';

type KafkaBusOptions = {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** kafkajs connection options (ssl, sasl, timeouts) passed through. */
  kafka?: Omit<KafkaConfig, 'brokers' | 'clientId' | 'logCreator' | 'logLevel'>;
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

export type KafkaBus = EventBus & {
  /** Creates the topics that do not exist yet (tests, local setups; the chart creates them in k8s). */
  ensureTopics(topics: string[], partitions?: number): Promise<void>;
  /** Deletes topics (test cleanup). */
  deleteTopics(topics: string[]): Promise<void>;
  /**
   * How far `groupId` is behind on `topic`: the end offset minus the group's committed offset,
   * summed over the partitions (a partition the group never committed counts from its start).
   * One admin connection, kept until close (the webhook's consumer-lag gauge).
   */
  consumerLag(groupId: string, topic: string): Promise<number>;
};

/** The EventBus over Kafka: idempotent producer (acks -1), commit after handle, traced. */
export function createKafkaBus(opts: KafkaBusOptions): KafkaBus {
  const { logger } = opts;
  const kafka = new Kafka({
    ...opts.kafka,
    brokers: opts.brokers,
    clientId: opts.clientId,
    logLevel: logLevel.WARN,
    logCreator: logCreatorFor(logger),
  });
  let producer: Promise<Producer> | undefined;
  let lagAdmin: Promise<Admin> | undefined;
  const consumers = new Set<Consumer>();

  function connectedProducer(): Promise<Producer> {
    producer ??= (async () => {
      // Idempotent: a retried send is written once. It needs acks=-1 and at most 5 in flight;
      // one keeps per-key order across retries.
      // The Java-compatible murmur2 partitioner, named explicitly (kafkajs warns otherwise).
      const created = kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await created.connect();
      return created;
    })().catch((err: unknown) => {
      producer = undefined;
      throw err;
    });
    return producer;
  }

  return {
    async publish(topic, messages) {
      if (messages.length === 0) return;
      const spans = startPublishSpans(topic, messages, 'kafka');
      try {
        const connected = await connectedProducer();
        await connected.send({
          topic,
          acks: -1,
          messages: messages.map((message, i) => ({
            key: message.key,
            value: Buffer.from(message.value.buffer, message.value.byteOffset, message.value.byteLength),
            headers: spans.headers[i],
          })),
        });
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
        eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
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
            await consumer.commitOffsets([
              { topic: from, partition, offset: (BigInt(last) + 1n).toString() },
            ]);
            await heartbeat();
          }
        },
      });
      return {
        async stop() {
          if (!consumers.delete(consumer)) return;
          await consumer.disconnect();
        },
      };
    },

    async ensureTopics(topics, partitions = 3) {
      const admin = kafka.admin();
      await admin.connect();
      try {
        await admin.createTopics({
          waitForLeaders: true,
          topics: topics.map((topic) => ({ topic, numPartitions: partitions })),
        });
      } finally {
        await admin.disconnect();
      }
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
      lagAdmin ??= (async () => {
        const admin = kafka.admin();
        await admin.connect();
        return admin;
      })().catch((err: unknown) => {
        lagAdmin = undefined;
        throw err;
      });
      const admin = await lagAdmin;
      const [ends, [committed]] = await Promise.all([
        admin.fetchTopicOffsets(topic),
        admin.fetchOffsets({ groupId, topics: [topic] }),
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
      const admin = lagAdmin;
      lagAdmin = undefined;
      if (admin) await (await admin.catch(() => undefined))?.disconnect();
      await Promise.all([...consumers].map((consumer) => consumer.disconnect()));
      consumers.clear();
      const connected = producer;
      producer = undefined;
      if (connected) await (await connected.catch(() => undefined))?.disconnect();
    },
  };
}
