// Preloaded before the service (`node --require .../telemetry/preload.ts`) so the SDK's
// instrumentations patch http, pg and ioredis before anything requires them. Node runs --require
// before --import, so when loaded from source this file registers tsx itself to load start.ts.
if (__filename.endsWith('.ts')) require('tsx/cjs');

const { startTelemetry } = require('./start') as typeof import('./start');

startTelemetry({ serviceName: process.env['OTEL_SERVICE_NAME'] || 'qr-payout' });
