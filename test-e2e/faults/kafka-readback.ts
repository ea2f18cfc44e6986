// What Kafka holds for the events a fault campaign found missing (docs/testing.md "When a webhook
// is missing"), read back at the end of the run by groups of their own: a missing event's
// neighbourhood, the dispatcher group's committed offsets, and the whole topic searched for events
// the run's reader never saw.
import { randomBytes } from 'node:crypto';
import { TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { type Consumer, Kafka, logLevel } from 'kafkajs';

function trailClient(brokers: string): Kafka {
  return new Kafka({ clientId: 'faults-trail', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
}

/** How many messages the trail reads back from a missing event's offset on (offsets reused?). */
export const MISSING_NEIGHBOURHOOD = 8;

type PartitionOffsets = { partition: number; low: string; high: string };

/**
 * The events topic read by a consumer group of its own, started on each partition at `from(p)`:
 * `read` runs the consumer and says when it is done; the group is deleted afterwards.
 */
async function readWithOwnGroup<T>(
  brokers: string,
  from: (p: PartitionOffsets) => string,
  read: (consumer: Consumer, partitions: PartitionOffsets[]) => Promise<T>,
): Promise<T> {
  const kafka = trailClient(brokers);
  const groupId = `faults-trail-${randomBytes(4).toString('hex')}`;
  const admin = kafka.admin();
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
  try {
    await admin.connect();
    const partitions = await admin.fetchTopicOffsets(TRANSACTION_EVENTS_TOPIC);
    await admin.setOffsets({
      groupId,
      topic: TRANSACTION_EVENTS_TOPIC,
      partitions: partitions.map((p) => ({ partition: p.partition, offset: from(p) })),
    });
    await consumer.connect();
    await consumer.subscribe({ topic: TRANSACTION_EVENTS_TOPIC, fromBeginning: false });
    return await read(consumer, partitions);
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}

/** Resolves `done`'s value, or `late` after `ms`. */
function within<T>(done: Promise<T>, ms: number, late: T): Promise<T> {
  return Promise.race([done, new Promise<T>((resolve) => setTimeout(() => resolve(late), ms))]);
}

/**
 * The event ids the partition holds now from `offset` on (at most `count`), read by a group of its
 * own: compared with what the run's reader saw there, it shows whether the log was truncated and its
 * offsets given to other events (a broker that lost acknowledged writes).
 */
export async function readEventIdsAt(
  brokers: string,
  partition: number,
  offset: string,
  count: number,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  try {
    await readWithOwnGroup(
      brokers,
      (p) => (p.partition === partition ? offset : p.high),
      async (consumer, partitions) => {
        const end = BigInt(partitions.find((p) => p.partition === partition)?.high ?? '0');
        const want = Math.min(count, Number(end - BigInt(offset)));
        const done = new Promise<void>((resolve) => {
          if (want <= 0) resolve();
          void consumer.run({
            eachMessage: async ({ partition: from, message }) => {
              if (from !== partition || found.size >= want) return;
              found.set(message.offset, message.headers?.['event-id']?.toString() ?? '?');
              if (found.size >= want) resolve();
            },
          });
        });
        await within(done, 15_000, undefined);
      },
    );
  } catch {
    // The trail says "unknown" for what it could not read.
  }
  return found;
}

/** The dispatcher group's committed offset per partition of the events topic; undefined if unreadable. */
export async function committedOffsets(
  brokers: string,
  groupId: string,
): Promise<Map<number, bigint> | undefined> {
  const kafka = trailClient(brokers);
  const admin = kafka.admin();
  try {
    await admin.connect();
    const [topic] = await admin.fetchOffsets({ groupId, topics: [TRANSACTION_EVENTS_TOPIC] });
    return new Map((topic?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
  } catch {
    return undefined;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Where an event is in the topic now. */
export type KafkaPosition = { partition: number; offset: string; eventType: string; eventId: string };

/**
 * Every event of the given transactions (message key) the events topic holds now, read from each
 * partition's first offset to its end as they are when the search starts. An event found here that
 * the run's reader never saw was skipped by consumers; one not found here was lost by Kafka (or
 * never written). undefined: the topic could not be read to its end within the time allowed.
 */
export async function findEventsOnKafka(
  brokers: string,
  transactionIds: readonly string[],
  timeoutMs = 60_000,
): Promise<Map<string, KafkaPosition[]> | undefined> {
  const wanted = new Set(transactionIds);
  const found = new Map<string, KafkaPosition[]>();
  try {
    const complete = await readWithOwnGroup(
      brokers,
      (p) => p.low,
      (consumer, partitions) => {
        // The last offset to read per partition (its end when the search starts), while any is left.
        const left = new Map(
          partitions
            .filter((p) => BigInt(p.high) > BigInt(p.low))
            .map((p) => [p.partition, BigInt(p.high) - 1n]),
        );
        const done = new Promise<boolean>((resolve) => {
          if (left.size === 0) resolve(true);
          void consumer.run({
            eachMessage: async ({ partition, message }) => {
              const key = message.key?.toString() ?? '';
              if (wanted.has(key)) {
                const positions = found.get(key) ?? [];
                positions.push({
                  partition,
                  offset: message.offset,
                  eventType: message.headers?.['event-type']?.toString() ?? '?',
                  eventId: message.headers?.['event-id']?.toString() ?? '?',
                });
                found.set(key, positions);
              }
              const last = left.get(partition);
              if (last !== undefined && BigInt(message.offset) >= last) {
                left.delete(partition);
                if (left.size === 0) resolve(true);
              }
            },
          });
        });
        return within(done, timeoutMs, false);
      },
    );
    return complete ? found : undefined;
  } catch {
    return undefined;
  }
}
