import { Partitioners } from 'kafkajs';
import { byPartition } from './producer';

// byPartition (producer.ts): one record per partition, so one kafkajs send never spans brokers.
const record = {
  topic: 'payout.transaction-events.v1',
  acks: -1,
  messages: Array.from({ length: 24 }, (_, i) => ({ key: `txn_${i}`, value: `event ${i}` })),
};

it('splits a record into one per partition, each message where kafkajs would have put it, in order', () => {
  const parts = byPartition(record, 3);
  const metadata = [0, 1, 2].map((partitionId) => ({
    partitionId,
    leader: 0,
    replicas: [],
    isr: [],
    partitionErrorCode: 0,
  }));
  const kafkajsChoice = Partitioners.DefaultPartitioner();
  expect(parts.length).toBeGreaterThan(1);
  expect(parts.flatMap((p) => p.messages)).toHaveLength(24);
  for (const part of parts) {
    expect(part.topic).toBe(record.topic);
    expect(part.acks).toBe(-1);
    expect(new Set(part.messages.map((m) => m.partition)).size).toBe(1);
    for (const message of part.messages) {
      const { partition, ...asSent } = message;
      expect(partition).toBe(
        kafkajsChoice({ topic: record.topic, partitionMetadata: metadata, message: asSent }),
      );
    }
    // The record's order within a partition (per-key order).
    const indexes = part.messages.map((m) => Number(String(m.value).split(' ')[1]));
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  }
});

it('leaves a record for a topic without a known partition count as it is', () => {
  expect(byPartition(record, undefined)).toEqual([record]);
});
