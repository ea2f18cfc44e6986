// The fault campaign's Kafka read-back (test-e2e/faults/kafka-readback.ts; docs/testing.md "When a
// webhook is missing") against the run's Kafka: the whole events topic searched for the events of
// given transactions finds each where it was written, and nothing for a transaction with none.
import { randomUUID } from 'node:crypto';
import { TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { Kafka, logLevel } from 'kafkajs';
import { findEventsOnKafka, readEventIdsAt } from './faults/kafka-readback';

jest.setTimeout(90_000);

const brokers = process.env.KAFKA_BROKERS ?? '';

it('finds every event of the transactions asked for, where it was written, and none of others', async () => {
  const kafka = new Kafka({
    clientId: 'kafka-readback-test',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer();
  await producer.connect();
  const [written, other, never] = [`txn_${randomUUID()}`, `txn_${randomUUID()}`, `txn_${randomUUID()}`];
  const events = [
    { key: written, type: 'transaction.completed', id: randomUUID() },
    { key: other, type: 'transaction.failed', id: randomUUID() },
  ];
  const results = await producer.send({
    topic: TRANSACTION_EVENTS_TOPIC,
    messages: events.map((e) => ({
      key: e.key,
      value: '{}',
      headers: { 'event-type': e.type, 'event-id': e.id },
    })),
  });
  await producer.disconnect();

  const found = await findEventsOnKafka(brokers, [written, never]);
  expect(found).toBeDefined();
  const positions = found!.get(written) ?? [];
  expect(positions).toHaveLength(1);
  expect(positions[0]).toMatchObject({ eventType: 'transaction.completed', eventId: events[0]!.id });
  expect(results.map((r) => r.partition)).toContain(positions[0]!.partition);
  expect(found!.has(never)).toBe(false);
  expect(found!.has(other)).toBe(false);

  // The same event read back at its offset.
  const at = await readEventIdsAt(brokers, positions[0]!.partition, positions[0]!.offset, 1);
  expect(at.get(positions[0]!.offset)).toBe(events[0]!.id);
});
