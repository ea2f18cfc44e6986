// The package's public surface (`@qr-payout/webhook`). The wiring itself is in start.ts.

// What startWebhook resolves to: `{ url, stop() }` (stop drains in-flight calls, stops the workers, closes the deps).
export type { RunningGrpcService as RunningWebhook } from '@qr-payout/platform/grpc';
export { loadWebhookConfig } from './config';
export { generateSealingKey } from './crypto/sealed-box';
export { MIGRATIONS_DIR, type WebhookOverrides } from './deps';
export { startWebhook } from './start';
