// The events topic, provisioned by the migration Job (`main.js migrate` with
// EVENTS_TOPIC_PROVISION=true, the chart's `kafka.topic.provision: job`): created when missing with
// the partitions, replication factor and min.insync.replicas production needs (docs/architecture.md
// "Scaling out"); an existing topic is never changed, only checked. Adding partitions moves keys
// between them, and lowering replication is never wanted: both are the operator's call, so a
// shortfall is reported, not fixed.
import { type KafkaBus, type TopicDescription, TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import type { Logger } from '@qr-payout/platform/log';

export type EventsTopicSpec = {
  partitions: number;
  replicationFactor: number;
  minInsyncReplicas: number;
  /** Default payout.transaction-events.v1 (tests give their own). */
  topic?: string;
};

/** What an existing topic lacks against `spec`, one line each (empty: nothing). */
export function topicShortfalls(found: TopicDescription, spec: EventsTopicSpec): string[] {
  const lines: string[] = [];
  if (found.partitions < spec.partitions)
    lines.push(
      `${found.partitions} partitions, fewer than ${spec.partitions}: dispatcher replicas beyond ${found.partitions} sit idle`,
    );
  if (found.replicationFactor < spec.replicationFactor)
    lines.push(
      `replication factor ${found.replicationFactor}, below ${spec.replicationFactor}: a lost broker can lose acknowledged events`,
    );
  if (found.minInsyncReplicas < spec.minInsyncReplicas)
    lines.push(
      `min.insync.replicas ${found.minInsyncReplicas}, below ${spec.minInsyncReplicas}: an acknowledged event may live on one broker only`,
    );
  return lines;
}

/** Creates the events topic when missing, then reports it as the cluster has it. */
export async function provisionEventsTopic(
  bus: Pick<KafkaBus, 'ensureTopics' | 'describeTopic'>,
  spec: EventsTopicSpec,
  logger: Logger,
): Promise<{ created: boolean; found: TopicDescription; shortfalls: string[] }> {
  const topic = spec.topic ?? TRANSACTION_EVENTS_TOPIC;
  const before = await bus.describeTopic(topic);
  if (!before) {
    await bus.ensureTopics([topic], spec.partitions, {
      replicationFactor: spec.replicationFactor,
      configEntries: { 'min.insync.replicas': String(spec.minInsyncReplicas) },
    });
  }
  const found = await bus.describeTopic(topic);
  if (!found) throw new Error(`${topic} was created but the cluster does not list it`);
  const shortfalls = topicShortfalls(found, spec);
  logger.info({ topic, created: !before, ...found }, before ? 'events topic exists' : 'events topic created');
  for (const line of shortfalls) logger.warn({ topic }, `events topic: ${line}`);
  return { created: !before, found, shortfalls };
}
