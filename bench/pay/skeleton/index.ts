// Starts the pay skeleton (./process.ts) at one of its levels (./levels.ts) as five processes on a
// database of its own, and says where its front answers (bench/README.md "pay": the floors). Its
// own database makes the CPU row "PostgreSQL (this run's database)" of bench/shared/cpu.ts count
// only the skeleton's backends.
import { randomBytes } from 'node:crypto';
import { freePorts, type ManagedProcess, spawnTsProcess, waitUntilReady } from '../../../test-e2e/harness';
import { createRunDatabase } from '../../../test-e2e/harness/database';
import type { SkeletonLevelName } from './levels';

export interface PaySkeleton {
  /** Where the front answers POST /v1/pay. */
  url: string;
  /** The skeleton's own database (for the CPU scope). */
  databaseUrl: string;
  processes: ManagedProcess[];
  stop(): Promise<void>;
}

const SCRIPT = 'bench/pay/skeleton/process.ts';
const READY_TIMEOUT_MS = 60_000;

export async function startPaySkeleton(opts: {
  /** A PostgreSQL server URL: the skeleton makes its own database there, dropped by stop(). */
  databaseUrl: string;
  redisUrl: string;
  kafkaBrokers: string;
  logDir: string;
  /** The partner's delay from acceptance to callback (the simulator's PARTNER_SIM_SETTLE_MS). */
  settleMs?: number;
  level: SkeletonLevelName;
  /** The body of every POST /v1/pay (the readiness probe's too). */
  body: string;
}): Promise<PaySkeleton> {
  const database = await createRunDatabase(opts.databaseUrl);
  const ports = (await freePorts(4)).map(String);
  const [frontPort] = ports;
  // The telemetry preload the harness adds then loads nothing, as in the system under the bench.
  const env = {
    PATH: process.env.PATH,
    OTEL_SDK_DISABLED: 'true',
    DATABASE_URL: database.url,
    REDIS_URL: opts.redisUrl,
    KAFKA_BROKERS: opts.kafkaBrokers,
    SETTLE_MS: String(opts.settleMs ?? 2),
    SKELETON_LEVEL: opts.level,
    CONSUMER_GROUP: `bench-skeleton-${randomBytes(4).toString('hex')}`,
  };
  // Every role gets every port: front, decoder, store, partner.
  const spawn = (role: string) =>
    spawnTsProcess({
      name: `skeleton-${role}`,
      script: SCRIPT,
      args: [role, ...ports],
      env,
      logDir: opts.logDir,
    });
  const processes = ['decoder', 'store', 'partner', 'consumer', 'front'].map(spawn);
  const byRole = (role: string) => processes.find((proc) => proc.name === `skeleton-${role}`)!;
  const url = `http://127.0.0.1:${frontPort}`;
  const stop = async () => {
    await Promise.all(processes.map((proc) => proc.stop()));
    await database.drop();
  };
  try {
    // Ready when a whole pay goes through (front, Redis, both gRPC servers, the tables, the partner
    // and its callback), watched on the store, whose start (schema, topic, producer) can fail...
    await waitUntilReady(
      byRole('store'),
      'a pay through the skeleton',
      async () => {
        const res = await fetch(`${url}/v1/pay`, {
          method: 'POST',
          headers: { 'idempotency-key': randomBytes(8).toString('hex') },
          body: opts.body,
        });
        return res.status === 200 && (await res.text()).includes('"status":"completed"');
      },
      READY_TIMEOUT_MS,
    );
    // ...and when the consumer has joined its group, so its fetches are in the whole window.
    const consumer = byRole('consumer');
    await waitUntilReady(
      consumer,
      'the consumer joining its group',
      async () => consumer.logTail(200).includes('consumer joined'),
      READY_TIMEOUT_MS,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, databaseUrl: database.url, processes, stop };
}
