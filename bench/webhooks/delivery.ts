// Part A (bench/README.md "webhooks"): delivery throughput. The same run measures
//   baseline: ./baseline-process.ts signing and POSTing the same envelope bodies at the worker's
//             concurrency to the receiver, no database;
//   floor:    ./floor.ts, PostgreSQL alone doing the service's own statements for N deliveries,
//             batched as the service batches them: no HTTP, no Kafka (the ceiling of these
//             statements on this machine);
//   system:   the webhook service as its own process (dispatcher + worker, fresh database), N
//             TransactionEvents published to Kafka as fast as possible, until the N-th signed
//             delivery reached the receiver.
import { randomBytes } from 'node:crypto';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { WebhookService } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import pg from 'pg';
import { freePort, grpcServing, spawnTsProcess, waitUntilReady } from '../../test-e2e/harness';
import { createRunDatabase } from '../../test-e2e/harness/database';
import { readRowWrites, rowWritesPerUnit } from '../pay/row-writes';
import { cpuBetween, formatCpuTable, sampleCpu } from '../shared/cpu';
import { cpuProfileEnv } from '../shared/results';
import { distribution } from './distribution';
import { kafkaMessageOf, syntheticEvent } from './events';
import { readCommits, runPostgresFloor } from './floor';
import { deleteGroups, positionGroupAtEnd, startPublisher, topicPartitions } from './kafka';
import { type Receiver, startBaselineSender } from './receiver';
import {
  type DeliveryStages,
  type DeliverySummary,
  formatCpuComparison,
  formatDelivery,
  judgeDelivery,
  type ThroughputRun,
} from './report';

export interface DeliveryOptions {
  /** N: events published (system) and bodies sent (baseline) in the measured window. */
  events: number;
  /** Sent before each measured window, discarded (JIT, connections, the dispatcher's group join). */
  warmupEvents: number;
  /** WEBHOOK_WORKER_CONCURRENCY of the service, and the baseline's loops. */
  concurrency: number;
  /** Messages per Kafka produce request. */
  batchSize: number;
  /** The floor's claim loops (BENCH_WEBHOOKS_FLOOR_LOOPS). */
  floorLoops: number;
  cpuProfileDir?: string;
}

const READY_TIMEOUT_MS = 90_000;
// The service's pool (DB_POOL_MAX, which the bench leaves at its default) for the floor too.
const SERVICE_POOL_MAX = 10;
// The dispatcher's largest batch: the platform bus's handleBatch default (maxBatchSize 500).
const DISPATCHER_BATCH = 500;

const now = () => performance.timeOrigin + performance.now();

/**
 * Where the publish → receiver time of each measured event went, from the delivery rows: publish →
 * the dispatcher's insert (deliveries.created_at: Kafka, the dispatcher's queue and its two
 * statements), insert → the worker's attempt (last_attempt_at: wake-up and claim), attempt →
 * arrival at the receiver (signing, egress guard, HTTP); and the rate the dispatcher inserted at.
 */
async function readStages(
  databaseUrl: string,
  tenantId: string,
  events: ReadonlyArray<{ eventId: string }>,
  sentAt: readonly number[],
  arrivals: ReadonlyMap<string, number>,
): Promise<DeliveryStages> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ event_id: string; created_at: Date; last_attempt_at: Date | null }>(
      'SELECT event_id::text, created_at, last_attempt_at FROM webhook.deliveries WHERE tenant_id = $1',
      [tenantId],
    );
    const byEvent = new Map(rows.map((r) => [r.event_id, r]));
    const toInsert: number[] = [];
    const toAttempt: number[] = [];
    const toReceiver: number[] = [];
    let lastInsert = sentAt[0]!;
    events.forEach((event, i) => {
      const row = byEvent.get(event.eventId);
      if (!row) return;
      const inserted = row.created_at.getTime();
      lastInsert = Math.max(lastInsert, inserted);
      toInsert.push(inserted - sentAt[i]!);
      const attempted = row.last_attempt_at?.getTime();
      if (attempted === undefined) return;
      toAttempt.push(attempted - inserted);
      const arrived = arrivals.get(event.eventId);
      if (arrived !== undefined) toReceiver.push(arrived - attempted);
    });
    return {
      publishToInsert: distribution(toInsert),
      insertToAttempt: distribution(toAttempt),
      attemptToReceiver: distribution(toReceiver),
      insertsPerSec: toInsert.length / ((lastInsert - sentAt[0]!) / 1000),
    };
  } finally {
    await client.end();
  }
}

async function measureBaseline(
  opts: DeliveryOptions,
  receiver: Receiver,
  logDir: string,
): Promise<{ run: ThroughputRun; cpu: ReturnType<typeof cpuBetween> }> {
  const sender = await startBaselineSender({ logDir });
  try {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    receiver.setSecrets('/baseline', [secret]);
    const watched = [
      { name: 'baseline sender', pid: sender.pid },
      { name: 'receiver', pid: receiver.pid },
    ];
    let cpuStart = sampleCpu(watched);
    const result = await sender.run(
      {
        url: receiver.url,
        warmupPath: '/baseline-warmup',
        path: '/baseline',
        tenantId: `ten_bench${randomBytes(6).toString('hex')}`,
        secret,
        warmup: opts.warmupEvents,
        count: opts.events,
        concurrency: opts.concurrency,
      },
      () => {
        cpuStart = sampleCpu(watched);
      },
    );
    const cpu = cpuBetween(cpuStart, sampleCpu(watched));
    const seconds = (result.endedAtMs - result.startedAtMs) / 1000;
    return {
      run: {
        deliveries: result.responses,
        seconds,
        perSec: result.responses / seconds,
        latency: distribution(result.latenciesMs),
        problems: result.non2xx + result.errors,
      },
      cpu,
    };
  } finally {
    await sender.stop();
  }
}

export async function runDeliveryThroughput(
  opts: DeliveryOptions,
  ctx: { receiver: Receiver; logDir: string; brokers: string[] },
): Promise<DeliverySummary> {
  const { receiver, logDir, brokers } = ctx;
  console.log(
    `A. delivery throughput: ${opts.events} deliveries (+${opts.warmupEvents} warm-up) at concurrency ${opts.concurrency}`,
  );
  console.log('  baseline: sign + POST from its own process, no database...');
  const baseline = await measureBaseline(opts, receiver, logDir);
  console.log(`    ${baseline.run.perSec.toFixed(0)} deliveries/s`);
  console.log("  PostgreSQL floor: the service's statements only, fresh database, no HTTP, no Kafka...");
  const floor = await runPostgresFloor({
    events: opts.events,
    warmupEvents: opts.warmupEvents,
    insertBatch: DISPATCHER_BATCH,
    claimLimit: opts.concurrency,
    loops: opts.floorLoops,
    poolMax: SERVICE_POOL_MAX,
  });
  console.log(`    ${floor.perSec.toFixed(0)} deliveries/s`);

  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set (npm run bench starts the infrastructure)');
  const database = await createRunDatabase(serverUrl);
  const group = `bench-webhooks-${randomBytes(4).toString('hex')}`;
  const partitions = await topicPartitions(brokers).catch(() => 0);
  await positionGroupAtEnd(brokers, group);
  const port = await freePort();
  console.log('  system: the webhook service as its own process, fresh database...');
  const webhook = spawnTsProcess({
    name: 'webhook-throughput',
    script: 'services/webhook/src/main.ts',
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      METRICS_PORT: '0',
      DATABASE_URL: database.url,
      MIGRATE_ON_START: 'true',
      KAFKA_BROKERS: brokers.join(','),
      WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_DISPATCHER_GROUP: group,
      WEBHOOK_WORKER_CONCURRENCY: String(opts.concurrency),
      LOG_LEVEL: 'warn',
      OTEL_SDK_DISABLED: 'true',
      OTEL_SERVICE_NAME: 'webhook',
      ...cpuProfileEnv(opts.cpuProfileDir),
    },
    logDir,
  });
  const publisher = await startPublisher(brokers);
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilReady(webhook, 'gRPC SERVING', grpcServing(url), READY_TIMEOUT_MS);
    const client = createGrpcClient(WebhookService, { baseUrl: url, timeoutMs: 10_000 });
    const tenantId = `ten_bench${randomBytes(6).toString('hex')}`;
    const { secret } = await client.rotateSigningSecret({ tenantId });
    receiver.setSecrets('/system', [secret]);
    await client.createEndpoint({ tenantId, url: `${receiver.url}/system`, eventTypes: ['*'] });

    const commitsBefore = await readCommits(serverUrl, database.name);
    const writesBefore = await readRowWrites(database.url, { only: ['webhook'] });
    // Warm-up: also proves the dispatcher has joined its group and the worker delivers.
    const warmup = Array.from({ length: opts.warmupEvents }, () =>
      kafkaMessageOf(syntheticEvent(tenantId, new Date())),
    );
    await publisher.publish(warmup, opts.batchSize);
    await receiver.waitForCount('/system', warmup.length, 120_000);

    const events = Array.from({ length: opts.events }, () => syntheticEvent(tenantId, new Date()));
    const messages = events.map(kafkaMessageOf);
    const watched = [
      { name: 'webhook service', pid: webhook.pid },
      { name: 'receiver', pid: receiver.pid },
    ];
    const cpuStart = sampleCpu(watched);
    const sentAt = await publisher.publish(messages, opts.batchSize);
    const publishSeconds = (now() - sentAt[0]!) / 1000;
    let complete = true;
    await receiver
      .waitForCount('/system', warmup.length + events.length, 60_000 + opts.events * 20)
      .catch((err: unknown) => {
        complete = false;
        console.log(`    ${(err as Error).message}`);
      });
    const cpu = cpuBetween(cpuStart, sampleCpu(watched));

    const stats = await receiver.stats('/system');
    const firstArrival = new Map<string, number>();
    let duplicates = 0;
    for (let i = 0; i < stats.eventIds.length; i++) {
      const id = stats.eventIds[i]!;
      if (firstArrival.has(id)) duplicates += 1;
      else firstArrival.set(id, stats.receivedAtMs[i]!);
    }
    const latencies: number[] = [];
    let last = sentAt[0]!;
    events.forEach((event, i) => {
      const arrived = firstArrival.get(event.eventId);
      if (arrived === undefined) return;
      latencies.push(arrived - sentAt[i]!);
      last = Math.max(last, arrived);
    });
    const delivered = latencies.length;
    const seconds = (last - sentAt[0]!) / 1000;
    const stages = await readStages(database.url, tenantId, events, sentAt, firstArrival);

    // The service's backends exit with it and report their counters (and V8 writes the profile).
    await webhook.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const units = warmup.length + delivered;
    const commits = (await readCommits(serverUrl, database.name)) - commitsBefore;
    const writes = rowWritesPerUnit(
      writesBefore,
      await readRowWrites(database.url, { only: ['webhook'] }),
      units,
    );

    const summary = judgeDelivery({
      events: opts.events,
      warmupEvents: opts.warmupEvents,
      concurrency: opts.concurrency,
      partitions,
      baseline: baseline.run,
      floor,
      system: {
        deliveries: delivered,
        seconds,
        perSec: delivered / seconds,
        latency: distribution(latencies),
        problems: events.length - delivered,
        complete,
        duplicates,
        checked: stats.checked,
        badSignatures: stats.badSignatures,
        commitsPerDelivery: commits / units,
        writes,
        publishSeconds,
        stages,
      },
      cpu: { baseline: baseline.cpu, system: cpu },
    });
    console.log(`\n${formatDelivery(summary)}`);
    console.log('\nCPU during the baseline window (cores, average):');
    console.log(formatCpuTable(summary.cpu.baseline, summary.baseline.perSec, 'delivery'));
    console.log('\nCPU during the system window, first publish → N-th delivery (cores, average):');
    console.log(formatCpuTable(summary.cpu.system, summary.system.perSec, 'delivery'));
    console.log('\nCPU during the floor window, first insert → last success recorded (cores, average):');
    console.log(formatCpuTable(summary.floor.cpu, summary.floor.perSec, 'delivery'));
    console.log('');
    console.log(formatCpuComparison(summary));
    return summary;
  } catch (err) {
    if (err instanceof Error) err.message += `\n(webhook log: ${webhook.logFile})\n${webhook.logTail(20)}`;
    throw err;
  } finally {
    await publisher.close().catch(() => undefined);
    await webhook.stop();
    await closeGrpcClients();
    await database.drop().catch(() => undefined);
    await deleteGroups(brokers, [group]);
  }
}
