// Receiving webhooks: @qr-payout/webhook-receiver is the one implementation (verify, parse,
// dedupe); the client re-exports it so an integrator needs one package.
export {
  createMemoryDeduplicator,
  type EventDeduplicator,
  parseWebhookEvent,
  type ReceiveWebhookOptions,
  type ReceiveWebhookResult,
  receiveWebhook,
  SIGNATURE_HEADER,
  signWebhookBody,
  type TransactionCompletedEvent,
  type TransactionFailedEvent,
  type VerifyWebhookSignatureOptions,
  verifyWebhookSignature,
  type WebhookEvent,
  type WebhookPingEvent,
} from '@qr-payout/webhook-receiver';
export {
  type CallOptions,
  type ClientOptions,
  createClient,
  type PaymentCallOptions,
  type QrPayoutClient,
} from './client';
export type * from './generated/model';
export * as operations from './generated/operations';
export {
  DEFAULT_RETRY_POLICY,
  QrPayoutError,
  type RequestOptions,
  type RetryInfo,
  type RetryPolicy,
  type Transport,
} from './transport';
