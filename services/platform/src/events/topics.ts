/**
 * Kafka topic of terminal transaction events: the payout outbox writes it, webhook reads it
 * (docs/architecture.md "The outbox and Kafka").
 */
export const TRANSACTION_EVENTS_TOPIC = 'payout.transaction-events.v1';
