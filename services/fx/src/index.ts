// The package's public surface (`@qr-payout/fx`). The wiring itself is in start.ts.

// What startFx resolves to: `{ url, stop() }` (stop drains in-flight calls, stops the workers, closes the deps).
export type { RunningGrpcService as RunningFx } from '@qr-payout/platform/grpc';
export { loadFxConfig } from './config';
export { DEFAULT_RATE_TABLE, type RateEntry, type RateTable } from './rates/rate-table';
export { startFx } from './start';
