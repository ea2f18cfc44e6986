// @qr-payout/platform/telemetry: the OpenTelemetry SDK's start and stop (preload.ts starts it first),
// and the W3C trace context as stored text.
export { runOutsideTrace } from './outside-trace';
export { shutdownTelemetry, startTelemetry } from './start';
export { extractTraceContext, traceHeadersOf } from './trace-context';
