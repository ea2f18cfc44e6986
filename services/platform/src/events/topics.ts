/** Kafka topic of terminal transaction events: the payout outbox writes it, webhook reads it (design §5). */
export const TRANSACTION_EVENTS_TOPIC = 'payout.transaction-events.v1';
