// The fault campaign (issue 12 point 6; docs/testing.md "Fault campaign"): the whole system as
// separate processes on a private PostgreSQL, Redis and Kafka, under a steady open-loop pay load,
// while each fault is injected in turn with a recovery wait between. Then it checks what must hold
// whatever failed and returns the figures and every violation found.
import { randomBytes } from 'node:crypto';
import { TRANSACTION_EVENTS_TOPIC } from '@qr-payout/platform/events';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { type ManagedProcess, type ServiceName, type System, startSystem } from '../harness';
import { simStats } from '../support/pay';
import { startTransactionEventReader, type TransactionEventReader } from '../support/transaction-events';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { eventTrails } from './event-trail';
import { type PayAttempt, type PayLoad, startPayLoad } from './pay-load';
import { type PrivateInfra, startPrivateInfra } from './private-infra';

export interface CampaignSettings {
  mode: 'full' | 'ci';
  ratePerSecond: number;
  tenants: number;
  /** Load before the first fault. */
  warmupMs: number;
  /** How long a killed process or stopped server stays down before its restart. */
  downMs: number;
  /** How long partner and receiver faults last. */
  faultWindowMs: number;
  /** Load after a fault recovered, before the next one. */
  recoveryWaitMs: number;
  /** Longest wait for the first 2xx pay after a restart. */
  recoveryTimeoutMs: number;
  /** The client's timeout: no answer within it is a hang. */
  clientTimeoutMs: number;
  /** Payout's SETTLEMENT_HORIZON_PIX_MS: a live transaction older than this must be reported stuck. */
  horizonMs: number;
}

export const FULL: CampaignSettings = {
  mode: 'full',
  ratePerSecond: 20,
  tenants: 4,
  warmupMs: 10_000,
  downMs: 3_000,
  faultWindowMs: 20_000,
  recoveryWaitMs: 10_000,
  recoveryTimeoutMs: 60_000,
  clientTimeoutMs: 15_000,
  horizonMs: 60_000,
};

/** The CI form: every fault kind once, short waits (target: under 4 minutes on 2 cores). */
export const CI: CampaignSettings = {
  mode: 'ci',
  ratePerSecond: 10,
  tenants: 3,
  warmupMs: 3_000,
  downMs: 1_000,
  faultWindowMs: 6_000,
  recoveryWaitMs: 2_000,
  recoveryTimeoutMs: 30_000,
  clientTimeoutMs: 15_000,
  horizonMs: 45_000,
};

export type FaultKind = 'process' | 'infra' | 'partner' | 'receiver';

export interface FaultRecord {
  name: string;
  kind: FaultKind;
  injectedAt: number;
  /** The restart finished (process ready, server answering) or the fault was cleared. */
  clearedAt: number;
  /** The first pay sent after clearedAt that got a 2xx; undefined if none came in time. */
  recoveredAt?: number;
  recoveryMs?: number;
  /** Answers to pays sent from injection to recovery, by class. */
  answers: Record<string, number>;
}

export interface CampaignResult {
  settings: CampaignSettings;
  durationMs: number;
  faults: FaultRecord[];
  figures: Record<string, number | string>;
  violations: string[];
  /**
   * For each transaction with an event missing at a target: where the event stopped (outbox, Kafka,
   * dispatcher, deliveries, attempts, receiver, logs; faults/event-trail.ts).
   */
  trails: string[];
  /** The figures and the per-fault table, ready to print. */
  report: string;
}

const TERMINAL = new Set(['completed', 'failed']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Fault {
  name: string;
  kind: FaultKind;
  /** Injects, waits, and clears or restarts; resolves when the fault is cleared. */
  run(ctx: RunContext): Promise<void>;
}

interface RunContext {
  system: System;
  infra: PrivateInfra;
  receiver: WebhookReceiver;
  settings: CampaignSettings;
  receiverPaths: string[];
  gatewayEnv: NodeJS.ProcessEnv;
  current: Map<string, ManagedProcess>;
}

async function killHard(proc: ManagedProcess): Promise<void> {
  proc.child.kill('SIGKILL');
  await proc.exited;
}

function killService(name: ServiceName): Fault {
  return {
    name: `kill -9 ${name}`,
    kind: 'process',
    async run(ctx) {
      await killHard(ctx.current.get(name)!);
      await sleep(ctx.settings.downMs);
      const port = new URL(ctx.system.serviceUrls[name]).port;
      const restarted = await ctx.system.startService(name, { GRPC_PORT: port });
      ctx.current.set(name, restarted.process);
    },
  };
}

const killGateway: Fault = {
  name: 'kill -9 gateway',
  kind: 'process',
  async run(ctx) {
    await killHard(ctx.current.get('gateway')!);
    await sleep(ctx.settings.downMs);
    const ports = {
      port: Number(new URL(ctx.system.gatewayUrl).port),
      adminPort: Number(new URL(ctx.system.adminUrl).port),
    };
    const restarted = await ctx.system.startGateway(ctx.gatewayEnv, ports);
    ctx.current.set('gateway', restarted.process);
  },
};

function partnerFault(name: string, plan: Record<string, unknown>): Fault {
  return {
    name,
    kind: 'partner',
    async run(ctx) {
      const faults = `${ctx.system.partnerSimUrl}/_sim/faults`;
      const set = await fetch(faults, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(plan),
      });
      if (!set.ok) throw new Error(`partner-sim refused the fault plan: ${set.status} ${await set.text()}`);
      await sleep(ctx.settings.faultWindowMs);
      await fetch(faults, { method: 'DELETE' });
    },
  };
}

const receiverAnswers500: Fault = {
  name: 'receiver answers 500',
  kind: 'receiver',
  async run(ctx) {
    for (const path of ctx.receiverPaths) ctx.receiver.answer(path, () => ({ status: 500 }));
    await sleep(ctx.settings.faultWindowMs);
    for (const path of ctx.receiverPaths) ctx.receiver.answer(path, () => ({ status: 200 }));
  },
};

/** Every fault, in the order the campaign injects them. */
export const FAULTS: Fault[] = [
  killService('decoder'),
  killService('fx'),
  killService('payout'),
  killService('webhook'),
  killGateway,
  { name: 'restart Kafka', kind: 'infra', run: (ctx) => ctx.infra.restartKafka(ctx.settings.downMs) },
  { name: 'restart PostgreSQL', kind: 'infra', run: (ctx) => ctx.infra.restartPostgres(ctx.settings.downMs) },
  {
    name: 'FLUSHALL + restart Redis',
    kind: 'infra',
    run: (ctx) => ctx.infra.flushAndRestartRedis(ctx.settings.downMs),
  },
  partnerFault('partner timeouts', { rates: { submit_timeout: 0.3 }, timeout_ms: 3_000 }),
  partnerFault('partner 5xx', { rates: { submit_5xx: 0.3 } }),
  partnerFault('partner drops callbacks', { rates: { drop_callback: 0.5 } }),
  receiverAnswers500,
];

/** The class of a pay attempt's answer, as the table counts it. */
function answerClass(a: PayAttempt): string {
  if (a.status === 0) return a.failure ?? 'no answer';
  if (a.status === 503) return '503';
  return `${Math.floor(a.status / 100)}xx${a.status >= 500 ? ` (${a.status})` : ''}`;
}

/**
 * docs/testing.md "Fault campaign", what counts as a violation: while a fault lasts, a pay may get
 * its normal contract's 2xx or 4xx or 503 ServiceUnavailable, nothing else (no 500, 502, 504, no hang
 * past the client timeout); a refused or reset connection only while the gateway itself is down.
 * Outside the faults (before the first, after each recovery) any 5xx or missing answer is one.
 */
function judgeAnswer(a: PayAttempt, during: FaultRecord | undefined): string | undefined {
  const what = `pay ${a.key}${a.retry ? ' (retry)' : ''} sent at ${new Date(a.sentAt).toISOString()}`;
  if (during) {
    if (a.status === 503 || (a.status >= 200 && a.status < 500)) return undefined;
    if (a.status === 0 && a.failure !== 'timeout' && during.name === 'kill -9 gateway') return undefined;
    return `${what}, during "${during.name}": ${answerClass(a)}${a.errorTag ? ` ${a.errorTag}` : ''}`;
  }
  if (a.status >= 200 && a.status < 500) return undefined;
  return `${what}, outside any fault: ${answerClass(a)}${a.errorTag ? ` ${a.errorTag}` : ''}`;
}

interface TransactionRow {
  id: string;
  tenant_id: string;
  status: string;
  callback_url: string | null;
  created_at: Date;
}

export async function runCampaign(
  settings: CampaignSettings,
  log: (line: string) => void = (line) => console.log(line),
): Promise<CampaignResult> {
  const began = Date.now();
  const violations: string[] = [];
  const faults: FaultRecord[] = [];
  const infra = await startPrivateInfra((line) => log(`  ${line}`));
  let system: System | undefined;
  let receiver: WebhookReceiver | undefined;
  let db: pg.Pool | undefined;
  let load: PayLoad | undefined;
  let eventReader: TransactionEventReader | undefined;
  try {
    receiver = await startWebhookReceiver();
    const gatewayEnv = { EXECUTE_WAIT_MS: '2000' };
    // Named here so the trail of a missing event can read how far the dispatchers committed.
    const dispatcherGroup = `faults-webhook-${randomBytes(4).toString('hex')}`;
    system = await startSystem({
      infra,
      gatewayEnv,
      partnerSimEnv: { PARTNER_SIM_FAULTS: 'true', PARTNER_SIM_SLOW_SETTLE_MS: '3000' },
      serviceEnv: {
        payout: {
          POLL_INTERVAL_MS: '200',
          POLL_LEASE_MS: '3000',
          PARTNER_TIMEOUT_MS: '2000',
          SETTLEMENT_HORIZON_PIX_MS: String(settings.horizonMs),
        },
        // debug: the dispatcher logs every batch's event ids, which the trail of a missing event quotes.
        webhook: { WEBHOOK_DISPATCHER_GROUP: dispatcherGroup, LOG_LEVEL: 'debug' },
      },
    });
    // An independent consumer group: which events reached Kafka, at which offset (the trails).
    eventReader = await startTransactionEventReader(infra.kafkaBrokers.split(','));
    log(`system up in ${((Date.now() - began) / 1000).toFixed(1)} s (logs ${system.logDir})`);
    db = new pg.Pool({ connectionString: system.databaseUrl, max: 2 });

    const run = randomBytes(3).toString('hex');
    const tenants = [];
    const receiverPaths: string[] = [];
    for (let i = 0; i < settings.tenants; i++) {
      const tenant = await system.createTenant(`faults-${run}-${i}`, 1_000_000);
      for (const [path, eventTypes] of [
        [`/t${i}/all`, ['*']],
        [`/t${i}/failed`, ['transaction.failed']],
      ] as const) {
        await system.admin.createWebhookEndpoint({
          endpoint: { tenantId: tenant.tenantId, url: `${receiver.url}${path}`, eventTypes: [...eventTypes] },
        });
        receiverPaths.push(path);
      }
      receiverPaths.push(`/t${i}/callback`);
      tenants.push({ ...tenant, index: i, callbackUrl: `${receiver.url}/t${i}/callback` });
    }
    receiver.setSecrets(tenants.map((t) => t.signingSecret));

    const current = new Map<string, ManagedProcess>();
    for (const name of ['decoder', 'fx', 'payout', 'webhook', 'gateway']) {
      current.set(name, system.processes.find((p) => p.name.startsWith(`${name}-`))!);
    }
    const ctx: RunContext = { system, infra, receiver, settings, receiverPaths, gatewayEnv, current };

    load = startPayLoad({
      gatewayUrl: system.gatewayUrl,
      tenants,
      ratePerSecond: settings.ratePerSecond,
      clientTimeoutMs: settings.clientTimeoutMs,
      retryAfterMs: 1_000,
    });
    await sleep(settings.warmupMs);

    // A process that died without being killed (e.g. on an unhandled error) is a finding; what
    // follows it would only measure its absence.
    const diedOnItsOwn = () =>
      [...current.values()]
        .filter((p) => p.hasExited())
        .map((p) => `${p.name} exited on its own during the campaign; its log ends:\n${p.logTail(12)}`);
    for (const fault of FAULTS) {
      const died = diedOnItsOwn();
      if (died.length > 0) {
        violations.push(...died);
        break;
      }
      const injectedAt = Date.now();
      log(`fault: ${fault.name} at ${new Date(injectedAt).toISOString()}`);
      await fault.run(ctx);
      const clearedAt = Date.now();
      const first = await load.firstSuccessSince(clearedAt, settings.recoveryTimeoutMs);
      const record: FaultRecord = { name: fault.name, kind: fault.kind, injectedAt, clearedAt, answers: {} };
      if (first) {
        record.recoveredAt = first.sentAt;
        record.recoveryMs = first.answeredAt - clearedAt;
      } else {
        violations.push(`"${fault.name}": no 2xx pay within ${settings.recoveryTimeoutMs} ms of the restart`);
      }
      faults.push(record);
      // Not recovered: the faults after it would only measure this one.
      if (!first) break;
      log(`  cleared after ${clearedAt - injectedAt} ms, first 2xx pay ${record.recoveryMs ?? '—'} ms later`);
      await sleep(settings.recoveryWaitMs);
    }
    await load.stop();
    if (faults.length === FAULTS.length) violations.push(...diedOnItsOwn());
    const loadEnded = Date.now();
    log(`load stopped: ${load.attempts.length} HTTP attempts`);

    // Answers: each attempt judged by the fault window it was in flight in (sent before the
    // recovery, answered after the injection: a pay the fault caught midway counts too).
    const windowOf = (a: PayAttempt) =>
      faults.find((f) => a.answeredAt >= f.injectedAt && a.sentAt < (f.recoveredAt ?? loadEnded));
    for (const a of load.attempts) {
      const during = windowOf(a);
      if (during) during.answers[answerClass(a)] = (during.answers[answerClass(a)] ?? 0) + 1;
      const v = judgeAnswer(a, during);
      if (v) violations.push(v);
    }

    // Transactions: every one of the run's tenants terminal, or listed stuck past its horizon.
    const tenantIds = tenants.map((t) => t.tenantId);
    const readTransactions = async () =>
      (
        await db!.query<TransactionRow>(
          'SELECT id, tenant_id, status, callback_url, created_at FROM payout.transactions WHERE tenant_id = ANY($1)',
          [tenantIds],
        )
      ).rows;
    const settleDeadline = Date.now() + settings.horizonMs + 20_000;
    let transactions = await readTransactions();
    while (transactions.some((t) => !TERMINAL.has(t.status)) && Date.now() < settleDeadline) {
      const live = transactions.filter((t) => !TERMINAL.has(t.status));
      // Live ones past the horizon need only be reported stuck; stop waiting once all are.
      if (live.every((t) => Date.now() - t.created_at.getTime() > settings.horizonMs + 5_000)) break;
      await sleep(1_000);
      transactions = await readTransactions();
    }
    const live = transactions.filter((t) => !TERMINAL.has(t.status));
    const stuck = live.length
      ? (await system.admin.listStuckTransactions({ limit: 500 })).transactions.filter(
          (s) => s.status === TransactionStatus.PENDING || s.status === TransactionStatus.PROCESSING,
        )
      : [];
    const stuckIds = new Set(stuck.map((s) => s.id));
    for (const t of live) {
      if (!stuckIds.has(t.id)) violations.push(`transaction ${t.id} is ${t.status} and not reported stuck`);
    }

    // Partner: exactly one payout per transaction. Payout deletes a transaction it could not submit
    // (and nothing in this load fails before the partner), so none may have none.
    const { submissions, callbacks } = await simStats(system.partnerSimUrl);
    let notSubmitted = 0;
    for (const t of transactions) {
      const count = submissions[t.id] ?? 0;
      if (count !== 1) violations.push(`transaction ${t.id} (${t.status}): ${count} partner submissions`);
      if (count === 0) notSubmitted++;
    }

    // Webhooks: every terminal event at every subscribed target at least once.
    const expected = (t: TransactionRow) => {
      const i = tenantIds.indexOf(t.tenant_id);
      const paths = [`/t${i}/all`];
      if (t.status === 'failed') paths.push(`/t${i}/failed`);
      if (t.callback_url) paths.push(new URL(t.callback_url).pathname);
      return paths.map((path) => `${path} ${t.id} transaction.${t.status}`);
    };
    const terminal = transactions.filter((t) => TERMINAL.has(t.status));
    const wanted = terminal.flatMap(expected);
    const seen = () =>
      new Set(
        receiver!.received.map(
          (r) => `${r.path} ${String(r.envelope.data.transaction_id)} ${r.envelope.event_type}`,
        ),
      );
    const deliveryDeadline = Date.now() + 90_000;
    let missing = wanted.filter((w) => !seen().has(w));
    while (missing.length > 0 && Date.now() < deliveryDeadline) {
      await sleep(1_000);
      const got = seen();
      missing = missing.filter((w) => !got.has(w));
    }
    for (const m of missing.slice(0, 20)) violations.push(`webhook never delivered: ${m}`);
    if (missing.length > 20) violations.push(`… and ${missing.length - 20} more webhooks never delivered`);
    const trails =
      missing.length === 0
        ? []
        : await eventTrails(
            {
              db,
              kafkaEvents: eventReader.events,
              dispatcherOffsets: await committedOffsets(infra.kafkaBrokers, dispatcherGroup),
              readKafkaAt: (partition, offset) =>
                readEventIdsAt(infra.kafkaBrokers, partition, offset, MISSING_NEIGHBOURHOOD),
              received: receiver.received,
              logDir: system.logDir,
            },
            [...new Set(missing.map((m) => m.split(' ')[1]!))].slice(0, 10),
          );
    for (const trail of trails) log(trail);
    const badSignatures = receiver.received.filter((r) => !r.helperVerified || !r.plainVerified).length;
    if (badSignatures > 0) violations.push(`${badSignatures} webhook requests failed signature verification`);
    // A request for an event_id the target had already answered 2xx is a duplicate the receiver
    // absorbs (deduplicating by event_id); repeats after a 500 are the retries that fault asked for.
    const acknowledged = new Set<string>();
    let receiverDuplicates = 0;
    let retriedAfterError = 0;
    for (const r of receiver.received) {
      const key = `${r.path} ${r.envelope.event_id}`;
      if (acknowledged.has(key)) receiverDuplicates++;
      else if ((r.answeredStatus ?? 200) >= 300) retriedAfterError++;
      if ((r.answeredStatus ?? 200) < 300) acknowledged.add(key);
    }

    const keys = new Set(load.attempts.map((a) => a.key));
    const accepted = new Set(
      load.attempts.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.key),
    );
    const figures: Record<string, number | string> = {
      'payments attempted (keys)': keys.size,
      'HTTP pay attempts (with retries)': load.attempts.length,
      'payments accepted (2xx)': accepted.size,
      'answers 503': load.attempts.filter((a) => a.status === 503).length,
      transactions: transactions.length,
      'completed / failed': `${transactions.filter((t) => t.status === 'completed').length} / ${
        transactions.filter((t) => t.status === 'failed').length
      }`,
      'live, reported stuck': `${live.length}, ${live.filter((t) => stuckIds.has(t.id)).length}`,
      'never submitted to the partner': notSubmitted,
      'max partner submissions per txn': Math.max(0, ...transactions.map((t) => submissions[t.id] ?? 0)),
      'partner callbacks delivered / failed / dropped': `${callbacks.delivered} / ${callbacks.failed} / ${callbacks.dropped}`,
      'webhook targets expected': wanted.length,
      'webhook targets missing': missing.length,
      'webhook requests received': receiver.received.length,
      'webhook requests answered 500 (retried)': retriedAfterError,
      'duplicates absorbed: receiver (event_id seen)': receiverDuplicates,
      'duplicates absorbed: idempotent replays': load.attempts.filter((a) => a.replayed).length,
      'faults injected': faults.length,
      violations: violations.length,
    };
    const durationMs = Date.now() - began;
    const result: CampaignResult = {
      settings,
      durationMs,
      faults,
      figures,
      violations,
      trails,
      report: formatReport(settings, durationMs, figures, faults, violations, trails),
    };
    return result;
  } finally {
    await load?.stop();
    await eventReader?.stop().catch(() => undefined);
    await db?.end();
    await system?.stop();
    await receiver?.close();
    await infra.stop();
  }
}

/** How many messages the trail reads back from a missing event's offset on (offsets reused?). */
const MISSING_NEIGHBOURHOOD = 8;

/**
 * The event ids the partition holds now from `offset` on (at most `count`), read by a group of its
 * own: compared with what the run's reader saw there, it shows whether the log was truncated and its
 * offsets given to other events (a broker that lost acknowledged writes).
 */
async function readEventIdsAt(
  brokers: string,
  partition: number,
  offset: string,
  count: number,
): Promise<Map<string, string>> {
  const kafka = new Kafka({
    clientId: 'faults-trail',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const groupId = `faults-trail-${randomBytes(4).toString('hex')}`;
  const admin = kafka.admin();
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
  const found = new Map<string, string>();
  try {
    await admin.connect();
    const partitions = await admin.fetchTopicOffsets(TRANSACTION_EVENTS_TOPIC);
    await admin.setOffsets({
      groupId,
      topic: TRANSACTION_EVENTS_TOPIC,
      partitions: partitions.map((p) => ({
        partition: p.partition,
        offset: p.partition === partition ? offset : p.high,
      })),
    });
    const end = BigInt(partitions.find((p) => p.partition === partition)?.high ?? '0');
    const want = Math.min(count, Number(end - BigInt(offset)));
    await consumer.connect();
    await consumer.subscribe({ topic: TRANSACTION_EVENTS_TOPIC, fromBeginning: false });
    const done = new Promise<void>((resolve) => {
      if (want <= 0) resolve();
      void consumer.run({
        eachMessage: async ({ partition: from, message }) => {
          if (from !== partition || found.size >= want) return;
          found.set(message.offset, message.headers?.['event-id']?.toString() ?? '?');
          if (found.size >= want) resolve();
        },
      });
    });
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  } catch {
    // The trail says "unknown" for what it could not read.
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
  return found;
}

/** The dispatcher group's committed offset per partition of the events topic; undefined if unreadable. */
async function committedOffsets(brokers: string, groupId: string): Promise<Map<number, bigint> | undefined> {
  const kafka = new Kafka({
    clientId: 'faults-trail',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    const [topic] = await admin.fetchOffsets({ groupId, topics: [TRANSACTION_EVENTS_TOPIC] });
    return new Map((topic?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
  } catch {
    return undefined;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

export function formatReport(
  settings: CampaignSettings,
  durationMs: number,
  figures: Record<string, number | string>,
  faults: FaultRecord[],
  violations: string[],
  trails: string[] = [],
): string {
  const classes = ['2xx', '4xx', '503', 'no_listener', 'reset'];
  const faultRows = faults.map((f) => [
    f.name,
    `${f.clearedAt - f.injectedAt}`,
    f.recoveryMs === undefined ? 'none' : `${f.recoveryMs}`,
    ...classes.map((c) => String(f.answers[c] ?? 0)),
    String(
      Object.entries(f.answers)
        .filter(([c]) => !classes.includes(c))
        .reduce((sum, [, n]) => sum + n, 0),
    ),
  ]);
  return [
    `fault campaign (${settings.mode}): ${settings.ratePerSecond} pays/s, ${settings.tenants} tenants, ${(durationMs / 1000).toFixed(0)} s`,
    table(
      ['figure', 'value'],
      Object.entries(figures).map(([k, v]) => [k, String(v)]),
    ),
    '',
    table(
      ['fault', 'down→cleared ms', 'recovery ms', '2xx', '4xx', '503', 'refused', 'reset', 'other'],
      faultRows,
    ),
    ...(violations.length ? ['', 'violations:', ...violations.slice(0, 50).map((v) => `- ${v}`)] : []),
    ...(trails.length ? ['', 'where the missing events stopped:', ...trails] : []),
  ].join('\n');
}
