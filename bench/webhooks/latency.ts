// Part B (bench/README.md "webhooks"): terminal commit → webhook receiver latency under an open-loop
// pay load through the whole system (started as bench/pay starts it), against the same run's
// commit → Kafka latency read by a consumer of our own (the baseline: what the webhook service
// cannot do better than, since it reads the same topic).
import { randomBytes } from 'node:crypto';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import pg from 'pg';
import { startSystem } from '../../test-e2e/harness';
import { startTransactionEventReader } from '../../test-e2e/support/transaction-events';
import { runPayOpenLoop } from '../pay/open-loop';
import { cpuBetween, formatCpuTable, sampleCpu } from '../shared/cpu';
import { cpuProfileEnv } from '../shared/results';
import { distribution } from './distribution';
import { deleteGroups, positionGroupAtEnd } from './kafka';
import type { Receiver } from './receiver';
import { formatLatency, judgeLatency, type LatencySummary } from './report';

export interface LatencyOptions {
  ratePerSec: number;
  seconds: number;
  warmupSeconds: number;
  /** PARTNER_SIM_SETTLE_MS, as bench/pay. */
  settleMs: number;
  cpuProfileDir?: string;
}

// The admin API's maximum: nothing is refused at these rates, but the limiter still runs.
const BENCH_RATE_LIMIT = 1_000_000;
// Every service with its own default pool (the e2e harness gives tests 4 connections each).
const POOL = { DB_POOL_MAX: '10' };
// Amount 10.00: the default outcome, completed through the partner callback (@qr-payout/test-kit/qrs).
const AMOUNT = 10;
// Pays in flight at once, as bench/pay's default: never reached at these rates unless the system stalls.
const MAX_IN_FLIGHT = 1000;
// After the last pay, how long a late or duplicate delivery still counts.
const SETTLE_WINDOW_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runCommitToReceiver(
  opts: LatencyOptions,
  ctx: { receiver: Receiver; brokers: string[] },
): Promise<LatencySummary> {
  const { receiver, brokers } = ctx;
  console.log(
    `B. commit → receiver: open loop ${opts.ratePerSec} pays/s, ${opts.warmupSeconds} s warm-up + ${opts.seconds} s measured`,
  );
  console.log('  starting the system (every service its own process, LOG_LEVEL=warn, telemetry off)...');
  const group = `bench-webhooks-b-${randomBytes(4).toString('hex')}`;
  await positionGroupAtEnd(brokers, group);
  const system = await startSystem({
    logLevel: 'warn',
    gatewayEnv: POOL,
    serviceEnv: {
      decoder: POOL,
      fx: POOL,
      payout: POOL,
      // The service's own defaults rather than the e2e suite's test timings (fast retries would
      // hide a failed first attempt), in a group positioned at the topic's end.
      webhook: {
        ...POOL,
        WEBHOOK_DISPATCHER_GROUP: group,
        WEBHOOK_RETRY_SCALE: '1',
        WEBHOOK_POLL_MS: '1000',
        WEBHOOK_LEASE_MS: '60000',
        WEBHOOK_TIMEOUT_MS: '15000',
        ...cpuProfileEnv(opts.cpuProfileDir),
      },
    },
    partnerSimEnv: { PARTNER_SIM_SETTLE_MS: String(opts.settleMs) },
  });
  const reader = await startTransactionEventReader(brokers);
  const db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });
  try {
    const tenant = await system.createTenant(
      `bench-webhooks-${randomBytes(4).toString('hex')}`,
      BENCH_RATE_LIMIT,
    );
    receiver.setSecrets('/latency', [tenant.signingSecret]);
    await system.admin.createWebhookEndpoint({
      endpoint: { tenantId: tenant.tenantId, url: `${receiver.url}/latency`, eventTypes: ['*'] },
    });
    const load = {
      gatewayUrl: system.gatewayUrl,
      apiKey: tenant.apiKey,
      body: JSON.stringify({ qr_string: PIX_WITHOUT_AMOUNT, amount: AMOUNT, ...PAYER }),
      ratePerSec: opts.ratePerSec,
      maxInFlight: MAX_IN_FLIGHT,
    };
    // One pay end to end first: the dispatcher has joined and the endpoint receives.
    const probe = await runPayOpenLoop({ ...load, ratePerSec: 1, durationMs: 1 });
    if (probe.completedIds.length !== 1)
      throw new Error(`a single pay did not complete: ${JSON.stringify(probe)}`);
    await receiver.waitForCount('/latency', 1, 60_000);

    if (opts.warmupSeconds > 0) await runPayOpenLoop({ ...load, durationMs: opts.warmupSeconds * 1000 });
    const watched = [...system.processes, { name: 'receiver', pid: receiver.pid }];
    const cpuStart = sampleCpu(watched);
    const measured = await runPayOpenLoop({ ...load, durationMs: opts.seconds * 1000 });
    const cpu = cpuBetween(cpuStart, sampleCpu(watched));
    const completedPerSec = measured.completedIds.length / opts.seconds;
    console.log(`  measured: ${measured.sent} pays sent, ${measured.completedIds.length} answered completed`);

    // Every terminal transaction of the tenant (probe and warm-up included) must get one delivery.
    const { rows: terminal } = await db.query<{ id: string }>(
      `SELECT id FROM payout.transactions WHERE tenant_id = $1 AND status IN ('completed', 'failed')`,
      [tenant.tenantId],
    );
    await receiver.waitForCount('/latency', terminal.length, 60_000, 200).catch(() => undefined);
    await sleep(SETTLE_WINDOW_MS);
    const stats = await receiver.stats('/latency');

    const terminalIds = new Set(terminal.map((t) => t.id));
    const perTxn = new Map<string, number>();
    const arrival = new Map<string, { receivedAt: number; occurredAt: number }>();
    for (let i = 0; i < stats.transactionIds.length; i++) {
      const id = stats.transactionIds[i]!;
      perTxn.set(id, (perTxn.get(id) ?? 0) + 1);
      if (!arrival.has(id))
        arrival.set(id, { receivedAt: stats.receivedAtMs[i]!, occurredAt: stats.occurredAtMs[i]! });
    }
    const kafkaArrival = new Map<string, { receivedAt: number; occurredAt: number }>();
    for (const e of reader.events) {
      if (e.event.tenantId !== tenant.tenantId || kafkaArrival.has(e.key)) continue;
      kafkaArrival.set(e.key, {
        receivedAt: e.receivedAtMs,
        occurredAt: timestampDate(e.event.occurredAt!).getTime(),
      });
    }
    // The delivery rows' own timestamps split the webhook's part: the dispatcher's insert
    // (created_at) and the worker's attempt (last_attempt_at).
    const { rows: deliveryRows } = await db.query<{
      transaction_id: string;
      created_at: Date;
      last_attempt_at: Date | null;
    }>('SELECT transaction_id, created_at, last_attempt_at FROM webhook.deliveries WHERE tenant_id = $1', [
      tenant.tenantId,
    ]);
    const rowOf = new Map(deliveryRows.map((r) => [r.transaction_id, r]));
    const toReceiver: number[] = [];
    const toKafka: number[] = [];
    const share: number[] = [];
    const toInsert: number[] = [];
    const toAttempt: number[] = [];
    const attemptToReceiver: number[] = [];
    for (const id of measured.transactionIds) {
      const hook = arrival.get(id);
      const kafka = kafkaArrival.get(id);
      const row = rowOf.get(id);
      if (hook) toReceiver.push(hook.receivedAt - hook.occurredAt);
      if (kafka) toKafka.push(kafka.receivedAt - kafka.occurredAt);
      if (hook && kafka) share.push(hook.receivedAt - kafka.receivedAt);
      if (!row || !hook) continue;
      toInsert.push(row.created_at.getTime() - hook.occurredAt);
      if (!row.last_attempt_at) continue;
      toAttempt.push(row.last_attempt_at.getTime() - row.created_at.getTime());
      attemptToReceiver.push(hook.receivedAt - row.last_attempt_at.getTime());
    }

    // The dispatcher's cycle per event while events queued for it: consecutive inserts whose next
    // event was already on Kafka when the earlier insert began (its service time, not idle gaps).
    const byInsert = deliveryRows
      .filter((r) => kafkaArrival.has(r.transaction_id))
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    const cycles: number[] = [];
    for (let i = 0; i + 1 < byInsert.length; i++) {
      const started = byInsert[i]!.created_at.getTime();
      if (kafkaArrival.get(byInsert[i + 1]!.transaction_id)!.receivedAt <= started)
        cycles.push(byInsert[i + 1]!.created_at.getTime() - started);
    }

    const summary = judgeLatency({
      ratePerSec: opts.ratePerSec,
      seconds: opts.seconds,
      warmupSeconds: opts.warmupSeconds,
      pays: {
        sent: measured.sent,
        byHttpStatus: measured.byHttpStatus,
        byTransactionStatus: measured.byTransactionStatus,
        errors: measured.errors,
        latency: distribution(measured.latenciesMs),
        maxScheduleLagMs: measured.maxSendLagMs,
      },
      kafka: distribution(toKafka),
      receiver: distribution(toReceiver),
      share: distribution(share),
      stages: {
        commitToInsert: distribution(toInsert),
        insertToAttempt: distribution(toAttempt),
        attemptToReceiver: distribution(attemptToReceiver),
        dispatcherCycle: distribution(cycles),
      },
      deliveries: {
        terminal: terminal.length,
        completedAnswers: measured.completedIds.length,
        received: stats.requests,
        missing: [...terminalIds].filter((id) => !perTxn.has(id)).length,
        duplicates: [...perTxn.values()].reduce((n, c) => n + c - 1, 0),
        unexpected: [...perTxn.keys()].filter((id) => !terminalIds.has(id)).length,
        checked: stats.checked,
        badSignatures: stats.badSignatures,
      },
      cpu,
    });
    console.log(`\n${formatLatency(summary)}`);
    console.log('\nCPU during the measured window (cores, average):');
    console.log(formatCpuTable(cpu, completedPerSec, 'pay'));
    return summary;
  } finally {
    await db.end();
    await reader.stop();
    await system.stop();
    await deleteGroups(brokers, [group]);
  }
}
