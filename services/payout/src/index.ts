// The package's public surface (`@qr-payout/payout`). The wiring itself is in start.ts.

// What startPayout resolves to: `{ url, stop() }` (stop drains in-flight calls, stops the workers, closes the deps).
export type { RunningGrpcService as RunningPayout } from '@qr-payout/platform/grpc';
export { loadPayoutConfig } from './config';
export type { PayoutDepsOverrides } from './deps';
export { startPayout } from './start';
