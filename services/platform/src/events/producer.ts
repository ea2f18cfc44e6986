import type { Kafka, Message, Producer, ProducerRecord } from 'kafkajs';
import { Partitioners } from 'kafkajs';

/** Rejects when `promise` has not settled within `ms`; the timer never outlives the race. */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no acknowledgement within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** A producer and the chain of its sends (one at a time); replaced after any failed send. */
type ProducerGeneration = { producer: Promise<Producer>; queue: Promise<unknown> };

export type ProducerGenerations = {
  /**
   * Sends `record` on the current producer after its previous send, one partition's messages per
   * produce (see `byPartition`); rejects past `timeoutMs`, or when a partition's send fails (the
   * other partitions may have been written: duplicates the consumers drop by event id).
   */
  send(record: ProducerRecord, timeoutMs?: number): Promise<void>;
  /** Disconnects the current producer; the next send makes a new one. */
  close(): Promise<void>;
};

/**
 * The Kafka bus's producer (docs/architecture.md "The outbox and Kafka"): a producer whose send
 * failed (an error, or no acknowledgement within the caller's deadline) is never used again.
 * kafkajs winds its sequence numbers back after a failed produce request; if the broker had written
 * that batch after all, the next, different batch would carry the same sequence, and the broker
 * would acknowledge it as a duplicate without writing it: an acknowledged event lost. A new
 * producer has a new producer id, so its sequences cannot collide with the old one's. The old one's
 * send may still land: a duplicate the consumers drop by event id.
 */
export function producerGenerations(
  kafka: Kafka,
  /** The topic's partition count; undefined for a topic that does not exist yet. */
  partitionCount: (topic: string) => Promise<number | undefined>,
): ProducerGenerations {
  let generation: ProducerGeneration | undefined;

  function currentGeneration(): ProducerGeneration {
    if (generation) return generation;
    // Idempotent: a retried send is written once. It needs acks=-1 and at most 5 in flight;
    // one keeps per-key order across retries.
    // The Java-compatible murmur2 partitioner, named explicitly (kafkajs warns otherwise).
    const created = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    const fresh: ProducerGeneration = {
      producer: created.connect().then(() => created),
      queue: Promise.resolve(),
    };
    fresh.producer.catch(() => retire(fresh));
    generation = fresh;
    return fresh;
  }

  function retire(retired: ProducerGeneration): void {
    if (generation !== retired) return;
    generation = undefined;
    void retired.queue
      .then(() => retired.producer)
      .then((producer) => producer.disconnect())
      .catch(() => undefined);
  }

  /** One send after the generation's previous one settled, on that generation's producer only. */
  function enqueueSend(gen: ProducerGeneration, record: ProducerRecord): Promise<void> {
    const send = gen.queue.then(async () => {
      // A send queued behind one that failed must not go out on the same producer (above).
      if (generation !== gen) throw new Error('Kafka producer retired after a failed send; not sent');
      const producer = await gen.producer;
      const parts = byPartition(record, await partitionCount(record.topic));
      // One partition per kafkajs send; partitions led by different brokers go out side by side.
      // Every part settles before the send does, so a retired producer has nothing in flight.
      const settled = await Promise.allSettled(parts.map((part) => producer.send(part)));
      const failed = settled.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    });
    gen.queue = send.catch(() => undefined);
    return send;
  }

  return {
    async send(record, timeoutMs) {
      const gen = currentGeneration();
      try {
        const sent = enqueueSend(gen, record);
        await (timeoutMs === undefined ? sent : withDeadline(sent, timeoutMs));
      } catch (err) {
        retire(gen);
        throw err;
      }
    },
    async close() {
      const last = generation;
      generation = undefined;
      if (last) await (await last.producer.catch(() => undefined))?.disconnect();
    },
  };
}

// The partitioner kafkajs would apply (murmur2 of the key, as the Java client), applied here first.
const defaultPartitioner = Partitioners.DefaultPartitioner();

/**
 * One record per partition, each message's partition set as kafkajs's default partitioner would
 * set it, in the record's order. kafkajs 2.2.4 loses messages when one send spans partitions led by
 * several brokers and a leader changes meanwhile (tulios/kafkajs#1303, #1798, open upstream; docs/
 * architecture.md "The outbox and Kafka"): it keeps each broker's answer across its retries, so
 * partitions that moved to a broker which had already answered are never sent, and the send
 * resolves. With one partition per send, a send has one leader and no answer to keep.
 */
export function byPartition(record: ProducerRecord, partitions: number | undefined): ProducerRecord[] {
  // A topic the first send creates (auto-creation) has no count yet: kafkajs partitions that one.
  if (partitions === undefined) return [record];
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
    partitionId,
    leader: 0,
    replicas: [],
    isr: [],
    partitionErrorCode: 0,
  }));
  const groups = new Map<number, Message[]>();
  for (const message of record.messages) {
    const partition = defaultPartitioner({ topic: record.topic, partitionMetadata, message });
    const group = groups.get(partition) ?? [];
    group.push({ ...message, partition });
    groups.set(partition, group);
  }
  return [...groups.values()].map((messages) => ({ ...record, messages }));
}
