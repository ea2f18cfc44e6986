// What the Kafka bus does through kafkajs' admin client: creating and deleting topics (a short-lived
// admin connection each), and the questions it asks of the cluster over one shared connection
// (partition counts, a topic's description, group members, consumer lag).
import { type Admin, ConfigResourceTypes, type Kafka } from 'kafkajs';

/** How a topic is created beyond its partitions (ensureTopics); unset: the broker's defaults. */
export type TopicSettings = {
  replicationFactor?: number;
  /** Topic configs, e.g. `{ 'min.insync.replicas': '2' }`. */
  configEntries?: Record<string, string>;
};

export type TopicDescription = { partitions: number; replicationFactor: number; minInsyncReplicas: number };

/**
 * Until every partition of `topics` has a leader; retriable errors (a topic not known yet) retry.
 * On a cluster the other brokers may learn of a new topic a moment later: clients retry that.
 */
async function waitForTopicLeaders(admin: Admin, topics: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const metadata = await admin.fetchTopicMetadata({ topics });
      const partitions = metadata.topics.flatMap((topic) => topic.partitions);
      if (metadata.topics.length === topics.length && partitions.every((p) => p.leader >= 0)) return;
    } catch (err) {
      if (!(err as { retriable?: boolean }).retriable || Date.now() > deadline) throw err;
    }
    if (Date.now() > deadline) throw new Error(`no leader for every partition of ${topics.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * admin.createTopics, whose failure says what each topic met: kafkajs rejects with "Topic creation
 * errors" and keeps the causes (an invalid replication factor, a policy) in `errors`.
 */
async function createTopicsNamingErrors(
  admin: Admin,
  options: Parameters<Admin['createTopics']>[0],
): Promise<void> {
  try {
    await admin.createTopics(options);
  } catch (err) {
    const causes = (err as { errors?: Array<{ topic?: string; message?: string; type?: string }> }).errors;
    if (!Array.isArray(causes) || causes.length === 0) throw err;
    const detail = causes
      .map((c) => `${c.topic ?? '?'}: ${c.type ?? ''} ${c.message ?? ''}`.trim())
      .join('; ');
    throw new Error(`creating Kafka topics failed: ${detail}`, { cause: err });
  }
}

export /** Creates the topics that do not exist yet, then waits until every broker knows their leaders. */
async function createTopics(
  kafka: Kafka,
  topics: string[],
  partitions: number,
  settings: TopicSettings,
): Promise<void> {
  const { replicationFactor, configEntries } = settings;
  const admin = kafka.admin();
  await admin.connect();
  try {
    await createTopicsNamingErrors(admin, {
      // kafkajs' own wait asks one broker, which on a cluster may not know the new topic yet
      // ("does not host this topic-partition"): waitForTopicLeaders polls until all do.
      waitForLeaders: false,
      topics: topics.map((topic) => ({
        topic,
        numPartitions: partitions,
        ...(replicationFactor === undefined ? {} : { replicationFactor }),
        ...(configEntries === undefined
          ? {}
          : { configEntries: Object.entries(configEntries).map(([name, value]) => ({ name, value })) }),
      })),
    });
    await waitForTopicLeaders(admin, topics);
  } finally {
    await admin.disconnect();
  }
}

/** Deletes topics (test cleanup). */
export async function deleteTopics(kafka: Kafka, topics: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

/** How long a topic's partition count is trusted before it is asked again (publish). */
const PARTITION_COUNT_TTL_MS = 60_000;

/** The cluster questions of the KafkaBus (kafka.ts), over one admin connection kept until close. */
export type ClusterQueries = {
  partitionCount(topic: string): Promise<number | undefined>;
  describeTopic(topic: string): Promise<TopicDescription | undefined>;
  groupMembers(groupId: string): Promise<number>;
  consumerLag(groupId: string, topic: string): Promise<number>;
  close(): Promise<void>;
};

export function createClusterQueries(kafka: Kafka): ClusterQueries {
  // One admin connection for what the bus asks of the cluster: consumer lag, partition counts.
  let sharedAdmin: Promise<Admin> | undefined;
  const admin = (): Promise<Admin> => {
    sharedAdmin ??= (async () => {
      const created = kafka.admin();
      await created.connect();
      return created;
    })().catch((err: unknown) => {
      sharedAdmin = undefined;
      throw err;
    });
    return sharedAdmin;
  };
  // A topic's partitions as the cluster lists them; undefined when it does not exist (asked first:
  // kafkajs retries a missing topic's metadata for seconds).
  const topicPartitions = async (topic: string) => {
    const cluster = await admin();
    if (!(await cluster.listTopics()).includes(topic)) return undefined;
    const { topics } = await cluster.fetchTopicMetadata({ topics: [topic] });
    return topics[0]?.partitions ?? [];
  };
  // Each topic's partition count, asked again after PARTITION_COUNT_TTL_MS (a topic can grow). A
  // missing topic is not remembered: the send that creates it is followed by split sends at once.
  const partitionCounts = new Map<string, { count: number; at: number }>();
  const partitionCount = async (topic: string): Promise<number | undefined> => {
    const known = partitionCounts.get(topic);
    if (known && Date.now() - known.at < PARTITION_COUNT_TTL_MS) return known.count;
    const count = (await topicPartitions(topic))?.length;
    if (!count) return undefined;
    partitionCounts.set(topic, { count, at: Date.now() });
    return count;
  };

  async function describeTopic(topic: string): Promise<TopicDescription | undefined> {
    const partitions = await topicPartitions(topic);
    if (!partitions) return undefined;
    const configs = await (await admin()).describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['min.insync.replicas'] }],
    });
    const minIsr = configs.resources[0]?.configEntries.find((e) => e.configName === 'min.insync.replicas');
    return {
      partitions: partitions.length,
      replicationFactor: partitions[0]?.replicas.length ?? 0,
      minInsyncReplicas: Number(minIsr?.configValue ?? 1),
    };
  }

  async function groupMembers(groupId: string): Promise<number> {
    const cluster = await admin();
    const { groups } = await cluster.describeGroups([groupId]);
    return groups[0]?.members.length ?? 0;
  }

  async function consumerLag(groupId: string, topic: string): Promise<number> {
    const cluster = await admin();
    // A topic nothing has published to yet holds no event to be behind on. Asked first because
    // kafkajs retries a missing topic's offsets for seconds, longer than a metrics scrape waits.
    if (!(await cluster.listTopics()).includes(topic)) return 0;
    const [ends, [committed]] = await Promise.all([
      cluster.fetchTopicOffsets(topic),
      cluster.fetchOffsets({ groupId, topics: [topic] }),
    ]);
    const committedByPartition = new Map(
      (committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]),
    );
    let lag = 0;
    for (const end of ends) {
      const at = committedByPartition.get(end.partition) ?? -1;
      // -1: nothing committed yet; the group starts from the partition's earliest offset.
      const from = at >= 0 ? at : Number(end.low);
      lag += Math.max(0, Number(end.high) - from);
    }
    return lag;
  }

  return {
    partitionCount,
    describeTopic,
    groupMembers,
    consumerLag,
    async close() {
      const opened = sharedAdmin;
      sharedAdmin = undefined;
      if (opened) await (await opened.catch(() => undefined))?.disconnect();
    },
  };
}
