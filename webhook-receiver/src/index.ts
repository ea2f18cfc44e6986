export {
  createMemoryDeduplicator,
  DEFAULT_DEDUPE_MAX_ENTRIES,
  DEFAULT_DEDUPE_TTL_MS,
  type EventDeduplicator,
  type MemoryDeduplicator,
  type MemoryDeduplicatorOptions,
} from './dedupe';
export {
  type ParseFailureReason,
  type ParseResult,
  parseWebhookEvent,
  type TransactionCompletedEvent,
  type TransactionError,
  type TransactionFailedEvent,
  type TransactionResult,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookPingEvent,
} from './event';
export {
  type ReceiveWebhookOptions,
  type ReceiveWebhookResult,
  receiveWebhook,
  type WebhookHeaders,
} from './receive';
export {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  type SignatureCheck,
  type SignatureFailureReason,
  signWebhookBody,
  type VerifyWebhookSignatureOptions,
  verifyWebhookSignature,
} from './signature';
