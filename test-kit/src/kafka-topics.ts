// How the tests create the events topic (docs/testing.md "Kafka as a three-node cluster"): on a
// cluster of three or more brokers, production's replication factor 3 with `min.insync.replicas` 2
// (charts/qr-payout/README.md), so an acknowledged event (acks=-1) is on two brokers at least and one
// broker may be lost; on the single test broker, the broker's defaults.
import type { TopicSettings } from '@qr-payout/platform/events';

export function topicSettingsFor(brokers: number): TopicSettings {
  return brokers >= 3 ? { replicationFactor: 3, configEntries: { 'min.insync.replicas': '2' } } : {};
}
