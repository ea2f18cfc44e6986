// @qr-payout/platform/telemetry: the OpenTelemetry SDK's start and stop (preload.ts starts it first).
export { runOutsideTrace } from './outside-trace';
export { shutdownTelemetry, startTelemetry } from './start';
