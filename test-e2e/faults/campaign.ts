// The fault campaign (docs/testing.md "Fault campaign"): the whole system as
// separate processes on a private PostgreSQL, Redis and Kafka, under a steady open-loop pay load,
// while each fault is injected in turn with a recovery wait between. Then it checks what must hold
// whatever failed and returns the figures and every violation found.
import { randomBytes } from 'node:crypto';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import pg from 'pg';
import { type ComponentName, freePorts, type ManagedProcess, type System, startSystem } from '../harness';
import { simStats } from '../support/pay';
import { startTransactionEventReader, type TransactionEventReader } from '../support/transaction-events';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { eventTrails } from './event-trail';
import { committedOffsets, findEventsOnKafka, MISSING_NEIGHBOURHOOD, readEventIdsAt } from './kafka-readback';
import { type LinkFaults, type LinkProxy, startLinkFaults, viaProxy } from './link-faults';
import { type PayAttempt, type PayLoad, startPayLoad } from './pay-load';
import { type PrivateInfra, startPrivateInfra } from './private-infra';
import { startSilentReceiver } from './silent-receiver';

export interface CampaignSettings {
  mode: 'full' | 'ci' | 'full-replicated' | 'ci-replicated';
  ratePerSecond: number;
  tenants: number;
  /** Load before the first fault. */
  warmupMs: number;
  /** How long a killed process or stopped server stays down before its restart. */
  downMs: number;
  /** How long partner, receiver and link faults last. */
  faultWindowMs: number;
  /** Load after a fault recovered, before the next one. */
  recoveryWaitMs: number;
  /** Longest wait for the first 2xx pay after a restart. */
  recoveryTimeoutMs: number;
  /** The client's timeout: no answer within it is a hang. */
  clientTimeoutMs: number;
  /** Payout's SETTLEMENT_HORIZON_PIX_MS: a live transaction older than this must be reported stuck. */
  horizonMs: number;
  /**
   * Processes per component (docs/testing.md "Replicas"), 1 each when absent: today's campaign.
   * With at least 2 of every component the campaign is the replicated one: one replica killed at a
   * time, pays over every gateway with the typed client's retries, the link faults, and no client
   * error tolerated while a replica of each component is up (docs/testing.md "Fault campaign").
   */
  replicas?: Partial<Record<ComponentName, number>>;
  /** Kafka nodes: 1 (default) or 3, the KRaft cluster whose brokers and controller are killed in turn. */
  kafkaNodes?: 1 | 3;
  /** How long payout replica 0's PostgreSQL link stays cut (replicated campaign). */
  linkCutMs?: number;
  /** The latency every gateway's Redis link gets in the Redis-latency fault (replicated campaign). */
  redisLatencyMs?: number;
  /** PostgreSQL with a synchronous standby, and the switchover fault (see `postgresSwitchover`). */
  postgresSwitchover?: boolean;
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

const TWO_OF_EACH: Record<ComponentName, number> = { gateway: 2, decoder: 2, fx: 2, payout: 2, webhook: 2 };

/**
 * The replicated campaign (docs/testing.md "The replicated campaign"): two replicas of every
 * component on a three-node Kafka, every fault of FULL plus a broker and the controller killed and
 * the link faults (`npm run fault-campaign -- --replicated`).
 */
export const FULL_REPLICATED: CampaignSettings = {
  ...FULL,
  mode: 'full-replicated',
  replicas: TWO_OF_EACH,
  kafkaNodes: 3,
  linkCutMs: 20_000,
  redisLatencyMs: 2_000,
  postgresSwitchover: true,
};

/** The replicated campaign's CI form (target: under 6 minutes on 2 cores). */
export const CI_REPLICATED: CampaignSettings = {
  ...CI,
  mode: 'ci-replicated',
  replicas: TWO_OF_EACH,
  kafkaNodes: 3,
  linkCutMs: 6_000,
  redisLatencyMs: 2_000,
  postgresSwitchover: true,
};

const COMPONENTS: readonly ComponentName[] = ['decoder', 'fx', 'payout', 'webhook', 'gateway'];

function replicaCount(settings: CampaignSettings, name: ComponentName): number {
  return settings.replicas?.[name] ?? 1;
}

/** Whether every component runs at least two replicas: the replicated campaign's rules apply. */
export function isReplicated(settings: CampaignSettings): boolean {
  return COMPONENTS.every((name) => replicaCount(settings, name) >= 2);
}

export type FaultKind = 'process' | 'infra' | 'link' | 'partner' | 'receiver';

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
  /** Pays (Idempotency-Keys) in the window, and those whose final answer was neither 2xx nor 4xx. */
  keys: number;
  keysNotOk: number;
  /** What the fault itself observed (which node, how many requests a silent receiver held, …). */
  note?: string;
}

export interface CampaignResult {
  settings: CampaignSettings;
  durationMs: number;
  /** The faults the campaign meant to inject, in order (what `faults` holds when none stopped it). */
  planned: string[];
  /** Faults left out of this run and why (e.g. one whose injection is not built yet). */
  skipped: string[];
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

/** What a fault reports besides its timing: a note for the table, violations it saw itself. */
interface FaultOutcome {
  note?: string;
  violations?: string[];
}

interface Fault {
  name: string;
  kind: FaultKind;
  /**
   * A dependency the system runs one of (PostgreSQL, Kafka as a whole, Redis, the partner) is down
   * or failing while this fault lasts: the one case where a replicated campaign accepts a 503 as a
   * pay's final answer (docs/testing.md "Fault campaign").
   */
  outage?: string;
  /** Injects, waits, and clears or restarts; resolves when the fault is cleared. */
  run(ctx: RunContext): Promise<FaultOutcome | undefined>;
}

/** The fault proxies of the replicated campaign (docs/testing.md "Link faults and the fault proxy"). */
interface CampaignLinks {
  faults: LinkFaults;
  /** payout replica i's DATABASE_URL goes through pgOfPayout[i]. */
  pgOfPayout: LinkProxy[];
  /** payout replica i's PARTNER_BASE_URL goes through partnerOfPayout[i]. */
  partnerOfPayout: LinkProxy[];
  /** gateway replica i's REDIS_URL goes through redisOfGateway[i]. */
  redisOfGateway: LinkProxy[];
  /** Tenant 0's callback_url goes through it (to the receiver, or to a silent one for a while). */
  callbackOfTenant0: LinkProxy;
  /**
   * Payout replica 0's and webhook replica 0's KAFKA_BROKERS go through these, one per Kafka node
   * (its PROXIED listener); empty without a Kafka cluster.
   */
  kafkaOfReplica0: LinkProxy[];
}

interface RunContext {
  system: System;
  infra: PrivateInfra;
  receiver: WebhookReceiver;
  settings: CampaignSettings;
  receiverPaths: string[];
  links?: CampaignLinks;
}

async function killHard(proc: ManagedProcess): Promise<void> {
  proc.child.kill('SIGKILL');
  await proc.exited;
}

/**
 * kill -9 of a component's replica 0, restarted on its address and ports after downMs. With one
 * replica that is the component itself (the gateway: connections refused meanwhile); with several,
 * the others keep serving.
 */
function killReplica(name: ComponentName, replicas: number): Fault {
  return {
    name: replicas > 1 ? `kill -9 ${name} (1 of ${replicas})` : `kill -9 ${name}`,
    kind: 'process',
    async run(ctx) {
      await killHard(ctx.system.replicas(name)[0]!.process);
      await sleep(ctx.settings.downMs);
      await ctx.system.restartReplica(name, 0);
      return undefined;
    },
  };
}

function partnerFault(name: string, plan: Record<string, unknown>): Fault {
  return {
    name,
    kind: 'partner',
    outage: 'the partner',
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
      return undefined;
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
    return undefined;
  },
};

// ---------------------------------------------------------------------------------------------
// Kafka as three nodes (docs/testing.md "Kafka as a three-node cluster").

const killKafkaBroker: Fault = {
  name: 'kill -9 one Kafka broker',
  kind: 'infra',
  async run(ctx) {
    const controller = await ctx.infra.controllerNode();
    const victim = (controller + 1) % ctx.infra.kafkaNodes;
    await ctx.infra.killKafkaNode(victim, ctx.settings.downMs);
    return { note: `node ${victim + 1} (the controller was node ${controller + 1}), back in the ISR` };
  },
};

const killKafkaController: Fault = {
  name: 'kill -9 the Kafka controller',
  kind: 'infra',
  async run(ctx) {
    const controller = await ctx.infra.controllerNode();
    await ctx.infra.killKafkaNode(controller, ctx.settings.downMs);
    return {
      note: `node ${controller + 1}, back in the ISR; controller now node ${(await ctx.infra.controllerNode()) + 1}`,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// PostgreSQL switchover: the primary handed to its standby under load (private-infra.ts,
// `startPrivateInfra(log, { pgStandby: true })`, then `switchoverPostgres()`; the system's
// PostgreSQL address is a proxy the switch repoints, as a cloud or CloudNativePG service is).
// The replicated forms set `postgresSwitchover`, which starts the private PostgreSQL with a standby.

function postgresSwitchover(settings: CampaignSettings, infra: PrivateInfra | undefined): Fault | undefined {
  if (!settings.postgresSwitchover || !infra) return undefined;
  return {
    name: 'PostgreSQL switchover',
    kind: 'infra',
    outage: 'PostgreSQL',
    async run(ctx) {
      await ctx.infra.switchoverPostgres();
      return undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Link faults through the fault proxy, one replica's link at a time while its peers' are fine.
// A Kafka client learns the brokers' addresses from metadata, so Kafka's proxies stand behind a
// second listener on each node that advertises them (INFRA_KAFKA_PROXY_PORTS, scripts/infra).

const links = (ctx: RunContext): CampaignLinks => {
  if (!ctx.links) throw new Error('link faults need the replicated campaign (its proxies)');
  return ctx.links;
};

/** The links half-open for the fault window, then healed. */
const halfOpenForWindow = async (ctx: RunContext, ...proxies: LinkProxy[]) => {
  const { faults } = links(ctx);
  for (const proxy of proxies) await faults.halfOpen(proxy);
  await sleep(ctx.settings.faultWindowMs);
  for (const proxy of proxies) await faults.clearToxics(proxy);
};

/** The links cut for `linkCutMs` (the fault window by default), then restored; the time cut. */
const cutForLinkCut = async (ctx: RunContext, ...proxies: LinkProxy[]): Promise<number> => {
  const { faults } = links(ctx);
  const ms = ctx.settings.linkCutMs ?? ctx.settings.faultWindowMs;
  for (const proxy of proxies) await faults.cut(proxy);
  await sleep(ms);
  for (const proxy of proxies) await faults.restore(proxy);
  return ms;
};

const payoutPostgresCut: Fault = {
  name: 'payout 0: PostgreSQL link cut',
  kind: 'link',
  async run(ctx) {
    const ms = await cutForLinkCut(ctx, links(ctx).pgOfPayout[0]!);
    return { note: `${ms} ms; payout 1 kept its link` };
  },
};

const payoutPostgresHalfOpen: Fault = {
  name: 'payout 1: PostgreSQL link half-open',
  kind: 'link',
  async run(ctx) {
    const { pgOfPayout } = links(ctx);
    await halfOpenForWindow(ctx, pgOfPayout[pgOfPayout.length - 1]!);
    return undefined;
  },
};

// Kafka's links of one payout replica (its outbox relay) and one webhook replica (its dispatcher,
// one of the group) through the proxies, while the other replicas keep theirs: the relay's sends
// fail at their deadline and the other payout's relay publishes the rows; the dispatcher's session
// lapses and the other takes its partitions, until the link comes back and the group rebalances.
const replica0KafkaCut: Fault = {
  name: 'payout 0 and webhook 0: Kafka links cut',
  kind: 'link',
  async run(ctx) {
    const ms = await cutForLinkCut(ctx, ...links(ctx).kafkaOfReplica0);
    return { note: `${ms} ms, every node; payout 1 and webhook 1 kept theirs` };
  },
};

const replica0KafkaHalfOpen: Fault = {
  name: 'payout 0 and webhook 0: Kafka links half-open',
  kind: 'link',
  async run(ctx) {
    await halfOpenForWindow(ctx, ...links(ctx).kafkaOfReplica0);
    return { note: 'every node; payout 1 and webhook 1 kept theirs' };
  },
};

const gatewayRedisLatency: Fault = {
  name: 'Redis answers late (every gateway)',
  kind: 'link',
  async run(ctx) {
    const { faults, redisOfGateway } = links(ctx);
    const ms = ctx.settings.redisLatencyMs ?? 2_000;
    for (const proxy of redisOfGateway) await faults.latency(proxy, ms);
    await sleep(ctx.settings.faultWindowMs);
    for (const proxy of redisOfGateway) await faults.clearToxics(proxy);
    // A link server frozen by the removal is replaced (test-e2e/faults/link-faults.ts), which
    // closes that gateway's Redis connections: said here, as it adds a fault.
    const replaced = redisOfGateway.filter((proxy) => faults.replacements.has(proxy.name)).map((p) => p.name);
    const also = replaced.length ? `; fault proxy replaced after freezing: ${replaced.join(', ')}` : '';
    return { note: `${ms} ms per answer${also}` };
  },
};

const payoutPartnerHalfOpen: Fault = {
  name: 'payout 0: partner link half-open',
  kind: 'link',
  async run(ctx) {
    await halfOpenForWindow(ctx, links(ctx).partnerOfPayout[0]!);
    return undefined;
  },
};

/**
 * Tenant 0's callback_url leads to a receiver that accepts and never answers for the window, then
 * to the receiver again (the proxy repointed: its URL never changes). The contract
 * (docs/api/webhooks.md "Delivery semantics", "Retries"): a timeout is a failed attempt, retried on
 * the schedule; so every event sent there meanwhile still arrives once the target answers (the
 * webhooks check), the worker's attempts end at WEBHOOK_TIMEOUT_MS, and the other targets keep
 * getting theirs during the window (checked here).
 */
const silentReceiver: Fault = {
  name: 'receiver never answers (tenant 0 callback)',
  kind: 'receiver',
  async run(ctx) {
    const { faults, callbackOfTenant0 } = links(ctx);
    const silent = await startSilentReceiver();
    const from = Date.now();
    try {
      await faults.repoint(callbackOfTenant0, `127.0.0.1:${silent.port}`);
      await sleep(ctx.settings.faultWindowMs);
    } finally {
      await faults.repoint(callbackOfTenant0, new URL(ctx.receiver.url));
      await silent.stop();
    }
    const until = Date.now();
    const elsewhere = ctx.receiver.received.filter(
      (r) => r.receivedAt >= from && r.receivedAt <= until && r.path !== '/t0/callback',
    ).length;
    const violations: string[] = [];
    if (silent.requestLines.length === 0)
      violations.push(
        '"receiver never answers": no webhook reached the silent receiver; the fault tested nothing',
      );
    if (elsewhere === 0)
      violations.push(
        '"receiver never answers": no webhook reached any other target during the window (the worker hung)',
      );
    return {
      note: `${silent.requestLines.length} requests held unanswered; ${elsewhere} webhooks delivered to other targets meanwhile`,
      violations,
    };
  },
};

/** Every fault of a campaign with these settings, in the order it injects them. */
export function faultsFor(
  settings: CampaignSettings,
  infra?: PrivateInfra,
): { faults: Fault[]; skipped: string[] } {
  const replicated = isReplicated(settings);
  const kafkaCluster = (settings.kafkaNodes ?? 1) > 1;
  const switchover = postgresSwitchover(settings, infra);
  const skipped: string[] = [];
  if (replicated && !switchover) skipped.push('PostgreSQL switchover: not wired yet (postgresSwitchover)');
  if (replicated && !kafkaCluster)
    skipped.push('Kafka link faults: they need the three-node Kafka (kafkaNodes: 3)');
  const faults: Fault[] = [
    ...COMPONENTS.map((name) => killReplica(name, replicaCount(settings, name))),
    ...(kafkaCluster ? [killKafkaBroker, killKafkaController] : []),
    {
      name: kafkaCluster ? 'restart Kafka (every node)' : 'restart Kafka',
      kind: 'infra',
      outage: 'Kafka',
      run: async (ctx) => {
        await ctx.infra.restartKafka(ctx.settings.downMs);
        return undefined;
      },
    },
    {
      name: 'restart PostgreSQL',
      kind: 'infra',
      outage: 'PostgreSQL',
      run: async (ctx) => {
        await ctx.infra.restartPostgres(ctx.settings.downMs);
        return undefined;
      },
    },
    ...(replicated && switchover ? [switchover] : []),
    {
      name: 'FLUSHALL + restart Redis',
      kind: 'infra',
      outage: 'Redis',
      run: async (ctx) => {
        await ctx.infra.flushAndRestartRedis(ctx.settings.downMs);
        return undefined;
      },
    },
    ...(replicated
      ? [
          payoutPostgresCut,
          payoutPostgresHalfOpen,
          gatewayRedisLatency,
          payoutPartnerHalfOpen,
          ...(kafkaCluster ? [replica0KafkaCut, replica0KafkaHalfOpen] : []),
        ]
      : []),
    partnerFault('partner timeouts', { rates: { submit_timeout: 0.3 }, timeout_ms: 3_000 }),
    partnerFault('partner 5xx', { rates: { submit_5xx: 0.3 } }),
    partnerFault('partner drops callbacks', { rates: { drop_callback: 0.5 } }),
    ...(replicated ? [silentReceiver] : []),
    receiverAnswers500,
  ];
  return { faults, skipped };
}

/** The class of a pay attempt's answer, as the table counts it. */
function answerClass(a: PayAttempt): string {
  if (a.status === 0) return a.failure ?? 'no answer';
  if (a.status === 503) return '503';
  return `${Math.floor(a.status / 100)}xx${a.status >= 500 ? ` (${a.status})` : ''}`;
}

/**
 * docs/testing.md "Fault campaign", what counts as a violation (one replica of each component):
 * while a fault lasts, a pay may get its normal contract's 2xx or 4xx or 503 ServiceUnavailable,
 * nothing else (no 500, 502, 504, no hang past the client timeout); a refused or reset connection
 * only while the gateway itself is down. Outside the faults (before the first, after each recovery)
 * any 5xx or missing answer is one.
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

/**
 * The replicated campaign's rule (docs/testing.md "Fault campaign"): a pay is its key, judged by
 * the final answer after the client's retries. It must be 2xx or a 4xx of the contract, or 503 only
 * in the window of a fault that takes down a dependency the system runs one of (`outage`); no answer
 * within the client's deadline, a refused or reset connection, a 500 or any other 5xx is a violation
 * in every window.
 */
function judgeKey(
  final: PayAttempt,
  tries: number,
  during: FaultRecord | undefined,
  outage: boolean,
): string | undefined {
  const what = `pay ${final.key} (${tries} attempt${tries > 1 ? 's' : ''}, last sent at ${new Date(final.sentAt).toISOString()})`;
  const where = during ? `during "${during.name}"` : 'outside any fault';
  if (final.deadlineExceeded) return `${what}, ${where}: no answer within the client's deadline`;
  if (final.status >= 200 && final.status < 500) return undefined;
  if (final.status === 503 && during && outage) return undefined;
  return `${what}, ${where}: ${answerClass(final)}${final.errorTag ? ` ${final.errorTag}` : ''}`;
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
  const replicated = isReplicated(settings);
  // The ports the Kafka link faults' proxies will listen on: each node advertises its PROXIED
  // listener there, so they are chosen before Kafka starts.
  const kafkaProxyPorts =
    replicated && (settings.kafkaNodes ?? 1) > 1 ? await freePorts(settings.kafkaNodes ?? 1) : undefined;
  const infra = await startPrivateInfra((line) => log(`  ${line}`), {
    kafkaNodes: settings.kafkaNodes ?? 1,
    ...(settings.postgresSwitchover ? { pgStandby: true } : {}),
    ...(kafkaProxyPorts ? { kafkaProxyPorts } : {}),
  });
  const { faults: plan, skipped } = faultsFor(settings, infra);
  let system: System | undefined;
  let receiver: WebhookReceiver | undefined;
  let db: pg.Pool | undefined;
  let load: PayLoad | undefined;
  let eventReader: TransactionEventReader | undefined;
  let linkFaults: LinkFaults | undefined;
  try {
    receiver = await startWebhookReceiver();
    // Named here so the trail of a missing event can read how far the dispatchers committed: one
    // group for every webhook replica (serviceEnv applies to each).
    const dispatcherGroup = `faults-webhook-${randomBytes(4).toString('hex')}`;
    // The replicated campaign's links through the fault proxy, per replica (setUpLinks).
    const replicaEnv = new Map<string, NodeJS.ProcessEnv>();
    let partial: Omit<CampaignLinks, 'pgOfPayout' | 'partnerOfPayout'> | undefined;
    if (replicated) {
      linkFaults = await startLinkFaults();
      const redisOfGateway: LinkProxy[] = [];
      for (let i = 0; i < replicaCount(settings, 'gateway'); i++) {
        const proxy = await linkFaults.proxy(`gateway-${i}→redis`, infra.redisUrl);
        redisOfGateway.push(proxy);
        replicaEnv.set(`gateway/${i}`, { REDIS_URL: viaProxy(infra.redisUrl, proxy) });
      }
      const callbackOfTenant0 = await linkFaults.proxy('tenant-0-callback→receiver', new URL(receiver.url));
      const kafkaOfReplica0: LinkProxy[] = [];
      for (const [i, listener] of infra.kafkaProxiedListeners.entries()) {
        kafkaOfReplica0.push(
          await linkFaults.proxy(`replica-0→kafka-${i + 1}`, listener, { port: kafkaProxyPorts![i]! }),
        );
      }
      if (kafkaOfReplica0.length > 0) {
        replicaEnv.set('webhook/0', { KAFKA_BROKERS: kafkaOfReplica0.map((p) => p.address).join(',') });
      }
      partial = { faults: linkFaults, redisOfGateway, callbackOfTenant0, kafkaOfReplica0 };
    }
    system = await startSystem({
      infra,
      replicas: settings.replicas,
      replicaEnv: (name, index) => replicaEnv.get(`${name}/${index}`),
      partnerSimEnv: { PARTNER_SIM_FAULTS: 'true', PARTNER_SIM_SLOW_SETTLE_MS: '3000' },
      serviceEnv: {
        payout: {
          EXECUTE_WAIT_MS: '2000',
          POLL_INTERVAL_MS: '200',
          POLL_LEASE_MS: '3000',
          PARTNER_TIMEOUT_MS: '2000',
          SETTLEMENT_HORIZON_PIX_MS: String(settings.horizonMs),
        },
        // debug: the dispatcher logs every batch's event ids, which the trail of a missing event quotes.
        webhook: { WEBHOOK_DISPATCHER_GROUP: dispatcherGroup, LOG_LEVEL: 'debug' },
      },
    });
    const ctxLinks = partial
      ? await setUpLinks(system, partial, replicaEnv, replicaCount(settings, 'payout'))
      : undefined;
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
      // Tenant 0's callbacks go through a proxy in the replicated campaign (its silent-receiver fault).
      const callbackBase =
        i === 0 && ctxLinks ? `http://${ctxLinks.callbackOfTenant0.address}` : receiver.url;
      tenants.push({ ...tenant, index: i, callbackUrl: `${callbackBase}/t${i}/callback` });
    }
    receiver.setSecrets(tenants.map((t) => t.signingSecret));

    const ctx: RunContext = { system, infra, receiver, settings, receiverPaths, links: ctxLinks };

    load = startPayLoad({
      gatewayUrls: system.gatewayUrls,
      tenants,
      ratePerSecond: settings.ratePerSecond,
      clientTimeoutMs: settings.clientTimeoutMs,
      retryAfterMs: 1_000,
      retry: replicated ? 'client' : 'once',
    });
    await sleep(settings.warmupMs);

    // A process that died without being killed (e.g. on an unhandled error) is a finding; what
    // follows it would only measure its absence. Every replica's current process, and the partner
    // simulator.
    const running = (): ManagedProcess[] => [
      ...COMPONENTS.flatMap((name) => system!.replicas(name).map((r) => r.process)),
      ...system!.processes.filter((p) => p.name.startsWith('partner-sim-')).slice(-1),
    ];
    const diedOnItsOwn = () =>
      running()
        .filter((p) => p.hasExited())
        .map((p) => `${p.name} exited on its own during the campaign; its log ends:\n${p.logTail(12)}`);
    for (const fault of plan) {
      const died = diedOnItsOwn();
      if (died.length > 0) {
        violations.push(...died);
        break;
      }
      const injectedAt = Date.now();
      log(`fault: ${fault.name} at ${new Date(injectedAt).toISOString()}`);
      const outcome = await fault.run(ctx);
      const clearedAt = Date.now();
      if (outcome?.violations) violations.push(...outcome.violations);
      const first = await load.firstSuccessSince(clearedAt, settings.recoveryTimeoutMs);
      const record: FaultRecord = {
        name: fault.name,
        kind: fault.kind,
        injectedAt,
        clearedAt,
        answers: {},
        keys: 0,
        keysNotOk: 0,
        ...(outcome?.note ? { note: outcome.note } : {}),
      };
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
    // Every process alive at the end (when a fault stopped the campaign, that was checked before it).
    if (faults.length === plan.length) violations.push(...diedOnItsOwn());
    const loadEnded = Date.now();
    log(`load stopped: ${load.attempts.length} HTTP attempts`);

    // Answers: each attempt counted in the fault window it was in flight in (sent before the
    // recovery, answered after the injection: a pay the fault caught midway counts too).
    const windowOf = (sentAt: number, answeredAt: number) =>
      faults.find((f) => answeredAt >= f.injectedAt && sentAt < (f.recoveredAt ?? loadEnded));
    const byKey = new Map<string, PayAttempt[]>();
    for (const a of load.attempts) {
      const during = windowOf(a.sentAt, a.answeredAt);
      if (during) during.answers[answerClass(a)] = (during.answers[answerClass(a)] ?? 0) + 1;
      byKey.set(a.key, [...(byKey.get(a.key) ?? []), a]);
      // One replica each: every attempt judged (docs/testing.md "Fault campaign").
      if (!replicated) {
        const v = judgeAnswer(a, during);
        if (v) violations.push(v);
      }
    }
    // Per key: its final answer after the client's retries, in the window its whole call overlapped.
    const finals: PayAttempt[] = [];
    for (const tries of byKey.values()) {
      const final = tries.find((a) => a.final) ?? tries[tries.length - 1]!;
      finals.push(final);
      const during = windowOf(Math.min(...tries.map((a) => a.sentAt)), final.answeredAt);
      const ok = final.status >= 200 && final.status < 500 && !final.deadlineExceeded;
      if (during) {
        during.keys++;
        if (!ok) during.keysNotOk++;
      }
      if (replicated) {
        const outage = plan.find((f) => f.name === during?.name)?.outage !== undefined;
        const v = judgeKey(final, tries.length, during, outage);
        if (v) violations.push(v);
      }
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

    // Acknowledged: every pay a client got a 2xx for is a transaction the system still holds, with
    // the id it answered (a commit acknowledged and then lost, e.g. by a database that crashed
    // before its write was durable, would break it).
    const held = new Set(transactions.map((t) => t.id));
    const acknowledgedIds = new Set(
      load.attempts
        .filter((a) => a.status >= 200 && a.status < 300 && a.transactionId)
        .map((a) => a.transactionId!),
    );
    const acknowledgedLost = [...acknowledgedIds].filter((id) => !held.has(id));
    for (const id of acknowledgedLost.slice(0, 20))
      violations.push(`pay acknowledged as ${id}, which the database no longer holds`);

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
              findOnKafka: (transactionIds) => findEventsOnKafka(infra.kafkaBrokers, transactionIds),
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
      replicas: COMPONENTS.map((name) => `${name} ${replicaCount(settings, name)}`).join(', '),
      'kafka nodes': settings.kafkaNodes ?? 1,
      'payments attempted (keys)': keys.size,
      'HTTP pay attempts (with retries)': load.attempts.length,
      'payments accepted (2xx)': accepted.size,
      'accepted and lost': acknowledgedLost.length,
      'answers 503': load.attempts.filter((a) => a.status === 503).length,
      'keys ending 503 / no answer': `${finals.filter((a) => a.status === 503).length} / ${
        finals.filter((a) => a.status === 0 || a.deadlineExceeded).length
      }`,
      'keys ending 4xx': finals.filter((a) => a.status >= 400 && a.status < 500).length,
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
      'faults injected': `${faults.length} of ${plan.length}`,
      ...(skipped.length ? { 'faults skipped': skipped.join('; ') } : {}),
      violations: violations.length,
    };
    const durationMs = Date.now() - began;
    const result: CampaignResult = {
      settings,
      durationMs,
      planned: plan.map((f) => f.name),
      skipped,
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
    await linkFaults?.stop();
    await receiver?.close();
    await infra.stop();
  }
}

/**
 * Payout's links through the fault proxy, one proxy per replica for PostgreSQL and one for the
 * partner. The run's database and the simulator's port exist only once the system is up, so each
 * payout replica is restarted (one at a time, before the load) with those URLs, which its later
 * restarts keep (startSystem's `replicaEnv` is asked again). The gateways' Redis proxies were given
 * at start.
 */
async function setUpLinks(
  system: System,
  partial: Omit<CampaignLinks, 'pgOfPayout' | 'partnerOfPayout'>,
  replicaEnv: Map<string, NodeJS.ProcessEnv>,
  payoutReplicas: number,
): Promise<CampaignLinks> {
  const pgOfPayout: LinkProxy[] = [];
  const partnerOfPayout: LinkProxy[] = [];
  for (let i = 0; i < payoutReplicas; i++) {
    const pgProxy = await partial.faults.proxy(`payout-${i}→postgres`, system.databaseUrl);
    const partnerProxy = await partial.faults.proxy(`payout-${i}→partner`, system.partnerSimUrl);
    pgOfPayout.push(pgProxy);
    partnerOfPayout.push(partnerProxy);
    replicaEnv.set(`payout/${i}`, {
      DATABASE_URL: viaProxy(system.databaseUrl, pgProxy),
      PARTNER_BASE_URL: `http://${partnerProxy.address}`,
      ...(i === 0 && partial.kafkaOfReplica0.length > 0
        ? { KAFKA_BROKERS: partial.kafkaOfReplica0.map((p) => p.address).join(',') }
        : {}),
    });
    await system.restartReplica('payout', i);
  }
  return { ...partial, pgOfPayout, partnerOfPayout };
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
    `${f.keys}`,
    `${f.keysNotOk}`,
    ...classes.map((c) => String(f.answers[c] ?? 0)),
    String(
      Object.entries(f.answers)
        .filter(([c]) => !classes.includes(c))
        .reduce((sum, [, n]) => sum + n, 0),
    ),
  ]);
  return [
    `fault campaign (${settings.mode}): ${settings.ratePerSecond} pays/s, ${settings.tenants} tenants, ${(durationMs / 1000).toFixed(0)} s`,
    '(answers by class count HTTP attempts; keys count pays, a key not ok ended neither 2xx nor 4xx after its retries)',
    table(
      ['figure', 'value'],
      Object.entries(figures).map(([k, v]) => [k, String(v)]),
    ),
    '',
    table(
      [
        'fault',
        'down→cleared ms',
        'recovery ms',
        'keys',
        'keys not ok',
        '2xx',
        '4xx',
        '503',
        'refused',
        'reset',
        'other',
      ],
      faultRows,
    ),
    ...(faults.some((f) => f.note)
      ? ['', ...faults.filter((f) => f.note).map((f) => `- ${f.name}: ${f.note}`)]
      : []),
    ...(violations.length ? ['', 'violations:', ...violations.slice(0, 50).map((v) => `- ${v}`)] : []),
    ...(trails.length ? ['', 'where the missing events stopped:', ...trails] : []),
  ].join('\n');
}
