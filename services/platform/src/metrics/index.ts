// @qr-payout/platform/metrics: the metrics config every deployable reads and the duration
// histograms every service records the same way (docs/runbooks.md "Metrics"). The endpoint itself
// is started and stopped by service-main.
export { durationHistogram, secondsSince } from './instruments';
export { metricsSettings } from './start';
