// @qr-payout/platform/events: the event bus (Kafka, or in process for the sandbox) and its topics.
export type { BusMessage, EventBus, Subscription } from './bus';
export { createKafkaBus, type KafkaBus, type TopicDescription, type TopicSettings } from './kafka';
export { type KafkaConnection, kafkaSettings } from './kafka-connection';
export { createMemoryBus } from './memory';
export { withDeadline } from './producer';
export { TRANSACTION_EVENTS_TOPIC } from './topics';
