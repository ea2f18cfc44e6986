// The world of the execute integration tests: real PostgreSQL (a random schema), the real partner
// simulator over HTTP, real fx over gRPC, payout over gRPC, and a callback relay standing in for
// the gateway's partner callback route (verify the Partner-Signature, then ApplyPartnerCallback).
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { create, fromBinary, type MessageInitShape } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import { loadFxConfig, type RunningFx, startFx } from '@qr-payout/fx';
import { type PayoutResource, type RunningPartnerSim, verifyCallbackSignature } from '@qr-payout/partner-sim';
import { createMemoryBus } from '@qr-payout/platform/events';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { newId } from '@qr-payout/platform/ids';
import { TransactionEventSchema } from '@qr-payout/proto/payout/events/v1/events_pb';
import { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import {
  type ExecuteInstructionRequest,
  ExecuteInstructionRequestSchema,
  PayoutService,
  type Transaction,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { SIM_API_KEY, SIM_CALLBACK_SECRET, startTestPartnerSim } from '@qr-payout/test-kit/partner-sim';
import { startOnFreshSchema } from '@qr-payout/test-kit/service';
import type pg from 'pg';
import { loadPayoutConfig, type RunningPayout, startPayout } from '../src/index';

/** The polling worker's first look after a submission: well after any sandbox callback. */
export const FIRST_POLL_MS = 1_500;
/** What `timeout_after_accept` must outlast. */
export const PARTNER_TIMEOUT_MS = 800;

export type World = {
  schema: string;
  fxSchema: string;
  admin: pg.Pool;
  sim: RunningPartnerSim;
  payout: RunningPayout;
  fx: RunningFx;
  client: Client<typeof PayoutService>;
  fxClient: Client<typeof FxService>;
  /** Callbacks the relay received, by our transaction id. */
  callbacks: Map<string, PayoutResource[]>;
  close(): Promise<void>;
};

export { pixQr, tenant } from './fixtures';

import { pixQr } from './fixtures';

async function startCallbackRelay(
  callbacks: Map<string, PayoutResource[]>,
  payoutClient: () => Client<typeof PayoutService> | undefined,
): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const rail = /^\/v1\/partner\/callbacks\/([a-z0-9.-]+)$/.exec(req.url ?? '')?.[1];
        const header = req.headers['partner-signature'];
        const check = verifyCallbackSignature({
          secret: SIM_CALLBACK_SECRET,
          header: typeof header === 'string' ? header : undefined,
          rawBody,
          now: Math.floor(Date.now() / 1000),
        });
        const client = payoutClient();
        if (!rail || !check.ok || !client) {
          res.writeHead(rail ? 401 : 404).end();
          return;
        }
        const payout = JSON.parse(rawBody) as PayoutResource;
        callbacks.set(payout.idempotency_key, [...(callbacks.get(payout.idempotency_key) ?? []), payout]);
        try {
          // As the gateway's route: the verified bytes as they came, payout reads them.
          await client.applyPartnerCallback({ rail, payload: Buffer.from(rawBody, 'utf8') });
          res.writeHead(200).end();
        } catch {
          res.writeHead(500).end();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** `payoutEnv`: added to payout's env (e.g. a short SETTLEMENT_HORIZON_PIX_MS). */
export async function startWorld(payoutEnv: Record<string, string> = {}): Promise<World> {
  const callbacks = new Map<string, PayoutResource[]>();
  let client: Client<typeof PayoutService> | undefined;
  const relay = await startCallbackRelay(callbacks, () => client);
  const sim = await startTestPartnerSim({
    PARTNER_SIM_SETTLE_MS: '100',
    PARTNER_SIM_SLOW_SETTLE_MS: '700',
    PARTNER_SIM_CALLBACK_RETRY_MS: '100',
    PARTNER_SIM_FAULTS: 'true',
  });
  const fx = await startOnFreshSchema('fx_test', (env) => startFx(loadFxConfig(env)));
  const payout = await startOnFreshSchema(
    'payout_test',
    (env) => startPayout(loadPayoutConfig(env), { bus: createMemoryBus() }),
    {
      DB_POOL_MAX: '10',
      OUTBOX_RELAY_ENABLED: 'false',
      FX_URL: fx.url,
      PARTNER_BASE_URL: sim.baseUrl,
      PARTNER_API_KEY: SIM_API_KEY,
      PARTNER_TIMEOUT_MS: String(PARTNER_TIMEOUT_MS),
      PARTNER_CALLBACK_BASE_URL: relay.baseUrl,
      POLL_INTERVAL_MS: '50',
      POLL_BACKOFF_BASE_MS: String(FIRST_POLL_MS),
      POLL_BACKOFF_MAX_MS: '3000',
      POLL_LEASE_MS: '3000',
      IDEMPOTENCY_KEY_REAP_MS: '200',
      ...payoutEnv,
    },
  );
  client = createGrpcClient(PayoutService, { baseUrl: payout.url, timeoutMs: 20_000 });
  const fxClient = createGrpcClient(FxService, { baseUrl: fx.url, timeoutMs: 5_000 });
  return {
    schema: payout.schema.name,
    fxSchema: fx.schema.name,
    admin: payout.schema.pool(),
    sim,
    payout,
    fx,
    client,
    fxClient,
    callbacks,
    async close() {
      await closeGrpcClients();
      await payout.stop();
      await fx.stop();
      await sim.close();
      await new Promise<void>((resolve) => relay.server.close(() => resolve()));
    },
  };
}

/** A stored instruction of `tenantId` paying `amountMinor` BRL over Pix. */
export async function newInstruction(world: World, tenantId: string, amountMinor: bigint): Promise<string> {
  const { instruction } = await world.client.createInstruction({
    tenantId,
    decoded: pixQr(amountMinor),
    amount: { currency: 'BRL', amountMinor },
  });
  return instruction!.id;
}

/**
 * A partner callback as the gateway forwards it: the rail and the payout resource's bytes
 * (docs/partner-protocol.md "Payout resource"), here made from the fields a test cares about.
 */
export function partnerCallback(
  rail: string,
  fields: {
    transactionId: string;
    status: string;
    partnerPayoutId?: string;
    reasonCode?: string;
    reference?: string;
    resourceRail?: string;
  },
): { rail: string; payload: Uint8Array } {
  const resource = {
    id: fields.partnerPayoutId ?? 'pp_test',
    idempotency_key: fields.transactionId,
    rail: fields.resourceRail ?? rail,
    amount: { currency: 'BRL', amount_minor: '1' },
    status: fields.status,
    reason_code: fields.reasonCode ?? null,
    reason: null,
    reference: fields.reference ?? null,
    created_at: new Date().toISOString(),
    settled_at: fields.status === 'ACSC' ? new Date().toISOString() : null,
  };
  return { rail, payload: Buffer.from(JSON.stringify(resource), 'utf8') };
}

export function fingerprintOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

export function executeRequest(
  tenantId: string,
  instructionId: string,
  overrides: Omit<MessageInitShape<typeof ExecuteInstructionRequestSchema>, '$typeName'> = {},
): ExecuteInstructionRequest {
  const payer = { name: 'Ana Souza', account: '0001-12345-6', taxId: '123.456.789-09' };
  return create(ExecuteInstructionRequestSchema, {
    tenantId,
    instructionId,
    payer,
    idempotencyKey: newId('idk'),
    requestFingerprint: fingerprintOf({ instructionId, payer }),
    waitMs: 5_000,
    ...overrides,
  });
}

export async function outboxEvents(world: World, transactionId: string): Promise<string[]> {
  const { rows } = await world.admin.query<{ event_type: string }>(
    `SELECT event_type FROM "${world.schema}".outbox_events WHERE message_key = $1 ORDER BY id`,
    [transactionId],
  );
  return rows.map((r) => r.event_type);
}

/** The transaction each outbox event of a transaction carries, decoded from its payload. */
export async function outboxEventTransactions(world: World, transactionId: string): Promise<Transaction[]> {
  const { rows } = await world.admin.query<{ payload: Buffer }>(
    `SELECT payload FROM "${world.schema}".outbox_events WHERE message_key = $1 ORDER BY id`,
    [transactionId],
  );
  return rows.map((r) => fromBinary(TransactionEventSchema, r.payload).transaction!);
}

export type SimStats = { submissions: Record<string, number>; requests: number };

export async function simStats(world: World): Promise<SimStats> {
  const response = await fetch(`${world.sim.baseUrl}/_sim/stats`);
  return (await response.json()) as SimStats;
}

export async function setFaults(world: World, plan: unknown): Promise<void> {
  const response = await fetch(`${world.sim.baseUrl}/_sim/faults`, {
    method: plan === undefined ? 'DELETE' : 'POST',
    ...(plan === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(plan) }),
  });
  if (!response.ok) throw new Error(`fault plan refused: HTTP ${response.status} ${await response.text()}`);
}

/** Polls until `check` holds or `ms` passes, returning the last value. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  ms = 8_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
