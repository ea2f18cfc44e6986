// Kill -9 of the relay mid-batch: no event lost (a repeat carries the same event id).
// The relay runs as its own process (test/support/outbox-relay-process.ts) against real
// PostgreSQL and Kafka; SIGKILL lands after Kafka acknowledged a batch and before it was marked.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BusMessage } from '@qr-payout/platform/events';
import { testInfra } from '@qr-payout/test-kit/infra';
import {
  appendCommitted,
  collectTransactionEvents,
  kafkaBus,
  migratedSchema,
  outboxRows,
  sleep,
  terminalTransaction,
  waitUntil,
  withKeys,
} from './support/outbox';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../../..');
const RELAY_SCRIPT = path.join(__dirname, 'support', 'outbox-relay-process.ts');
const BATCH_SIZE = 25;

type RelayProcess = {
  child: ChildProcess;
  batches: string[][];
  exited: Promise<{ code: number | null; signal: string | null }>;
};

function startRelayProcess(schema: string, extraEnv: Record<string, string> = {}): RelayProcess {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', RELAY_SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: testInfra.databaseUrl,
      KAFKA_BROKERS: testInfra.kafkaBrokers.join(','),
      DB_SCHEMA: schema,
      OUTBOX_BATCH_SIZE: String(BATCH_SIZE),
      OTEL_SDK_DISABLED: 'true',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const batches: string[][] = [];
  // The relay's own log lines share stdout: only the harness's `{"published": [...]}` lines count.
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const parsed = JSON.parse(line) as { published?: string[] };
    if (parsed.published) batches.push(parsed.published);
    else process.stderr.write(`relay process: ${line}\n`);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, batches, exited };
}

describe('outbox relay killed with SIGKILL mid-batch (real PostgreSQL and Kafka)', () => {
  const consumerBus = kafkaBus('payout-outbox-crash-consumer');
  const started: RelayProcess[] = [];
  let consumed: { messages: BusMessage[]; stop(): Promise<void> };
  let db: Awaited<ReturnType<typeof migratedSchema>>;

  beforeAll(async () => {
    db = await migratedSchema();
    consumed = await collectTransactionEvents(consumerBus);
  });

  afterAll(async () => {
    for (const relay of started) relay.child.kill('SIGKILL');
    await consumed?.stop();
    await consumerBus.close();
    await db?.drop();
  });

  it('loses no event: the batch in flight is published again, with the same event ids', async () => {
    const txns = Array.from({ length: 200 }, (_, i) => terminalTransaction(i % 2 ? 'completed' : 'failed'));
    const keys = new Set(txns.map((txn) => txn.id));
    const eventIds = await appendCommitted(db.pool, txns);

    const first = startRelayProcess(db.schema, { HANG_AFTER_PUBLISHES: '3' });
    started.push(first);
    await waitUntil('three acknowledged batches', () => first.batches.length >= 3, 60_000);
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Two batches were marked; the third is on Kafka but its rows are still unpublished.
    const inFlight = new Set(first.batches[2]);
    expect(inFlight.size).toBe(BATCH_SIZE);
    const afterCrash = await outboxRows(db.pool);
    expect(afterCrash.filter((row) => row.published).map((row) => row.event_id)).toEqual(
      eventIds.slice(0, 50),
    );
    for (const row of afterCrash.filter((r) => inFlight.has(r.event_id))) expect(row.published).toBe(false);

    // The kill closed the dead relay's connection: its transaction rolled back, the rows are free.
    const second = startRelayProcess(db.schema);
    started.push(second);
    await waitUntil('every row marked published', async () =>
      (await outboxRows(db.pool)).every((row) => row.published),
    );
    // The consumer may trail the marks: wait for every event, and the repeats of the batch in flight.
    await waitUntil('every event on Kafka, the batch in flight twice', () => {
      const seen = new Map<string, number>();
      for (const m of withKeys(consumed.messages, keys)) {
        const id = m.headers['event-id']!;
        seen.set(id, (seen.get(id) ?? 0) + 1);
      }
      return eventIds.every((id) => (seen.get(id) ?? 0) >= (inFlight.has(id) ? 2 : 1));
    });
    await sleep(500);

    const received = withKeys(consumed.messages, keys);
    const copies = new Map<string, BusMessage[]>();
    for (const message of received) {
      const id = message.headers['event-id']!;
      copies.set(id, [...(copies.get(id) ?? []), message]);
    }
    // None lost, nothing unknown.
    expect([...copies.keys()].sort()).toEqual([...eventIds].sort());
    // Only the batch in flight at the kill repeats, each repeat identical to the first copy.
    const repeated = [...copies].filter(([, messages]) => messages.length > 1).map(([id]) => id);
    expect(new Set(repeated)).toEqual(inFlight);
    for (const id of repeated) {
      const [original, ...again] = copies.get(id)!;
      for (const message of again) {
        expect(message.key).toBe(original!.key);
        expect(message.headers['event-type']).toBe(original!.headers['event-type']);
        expect(Buffer.from(message.value).equals(Buffer.from(original!.value))).toBe(true);
      }
    }

    // Graceful stop: SIGTERM waits for the batch in flight and exits cleanly.
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });
});
