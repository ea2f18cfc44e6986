// The outbox relay as its own process, for the crash test (test/outbox-crash.int.test.ts):
// the test kills it with SIGKILL and starts another. It prints one JSON line per acknowledged
// publish ({"published": [event ids]}) so the test knows how far it got.
//
// HANG_AFTER_PUBLISHES=n: after the n-th acknowledged publish, never return to the relay. The
// batch is then on Kafka but not marked published: the worst moment for a crash, which SIGKILL
// makes real.
import { createPgPool } from '@qr-payout/platform/db';
import { createKafkaBus, type EventBus } from '@qr-payout/platform/events';
import { createLogger } from '@qr-payout/platform/log';
import { onShutdown } from '@qr-payout/platform/shutdown';
import { testInfra } from '@qr-payout/test-kit/infra';
import { createOutboxStore } from '../../src/outbox/store';
import { runOutboxRelay } from '../../src/start';

/** What the crash test sets for this process. */
function requiredEnv(name: 'DB_SCHEMA' | 'OUTBOX_BATCH_SIZE'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required (test/outbox-crash.int.test.ts sets it)`);
  return value;
}

const databaseUrl = testInfra.databaseUrl;
const schema = requiredEnv('DB_SCHEMA');
const hangAfter = Number(process.env['HANG_AFTER_PUBLISHES'] ?? 0);
const logger = createLogger({ service: 'outbox-relay-test', level: 'warn' });
const pool = createPgPool({ connectionString: databaseUrl, schema, max: 2 });
const kafka = createKafkaBus({
  brokers: testInfra.kafkaBrokers,
  clientId: 'outbox-relay-test',
  logger,
});

let publishes = 0;
const bus: EventBus = {
  ...kafka,
  async publish(topic, messages) {
    await kafka.publish(topic, messages);
    publishes++;
    process.stdout.write(`${JSON.stringify({ published: messages.map((m) => m.headers['event-id']) })}\n`);
    if (hangAfter > 0 && publishes >= hangAfter) await new Promise(() => {});
  },
};

const relay = runOutboxRelay({
  store: createOutboxStore(pool),
  bus,
  logger,
  connectionString: databaseUrl,
  schema,
  batchSize: Number(requiredEnv('OUTBOX_BATCH_SIZE')),
  pollMs: 200,
  publishTimeoutMs: 30_000,
});

onShutdown({
  logger,
  graceMs: 10_000,
  steps: [
    { name: 'relay', run: () => relay.stop() },
    { name: 'bus', run: () => kafka.close() },
    { name: 'pool', run: () => pool.end() },
  ],
});
