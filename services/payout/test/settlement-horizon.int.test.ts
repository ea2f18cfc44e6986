// Nothing stuck (README "Transaction state machine"): past its rail's settlement horizon a live
// transaction is looked up at the partner (the real simulator over HTTP) and settled when the
// partner knows the outcome, failed with AB06 when the partner never received it (and never
// submitted again), and otherwise reported stuck: ListStuckTransactions lists it, and the
// payout.transactions.stuck gauge counts it.
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { silentLogger } from '@qr-payout/platform/log';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type pg from 'pg';
import { NOT_RECEIVED_CODE } from '../src/polling/horizon-check';
import { settlementHorizons } from '../src/stuck/horizons';
import { registerStuckGauge, STUCK_GAUGE } from '../src/stuck/metric';
import { createStuckStore } from '../src/stuck/store';
import {
  eventually,
  executeRequest,
  newInstruction,
  outboxEvents,
  setFaults,
  simStats,
  startWorld,
  tenant,
  type World,
} from './execute-harness';

jest.setTimeout(60_000);

const HORIZON_MS = 2_500;

describe('settlement horizon', () => {
  let world: World;
  let pool: pg.Pool;

  beforeAll(async () => {
    world = await startWorld({ SETTLEMENT_HORIZON_PIX_MS: String(HORIZON_MS), POLL_BACKOFF_MAX_MS: '1000' });
    // Unqualified names resolve in payout's schema.
    pool = world.admin;
  });

  afterAll(async () => {
    await setFaults(world, undefined).catch(() => undefined);
    await world?.close();
  });

  type Row = {
    status: string;
    error_code: string | null;
    stuck_since: Date | null;
    partner_payout_id: string | null;
  };
  async function row(id: string): Promise<Row> {
    const { rows } = await pool.query<Row>(
      'SELECT status, error_code, stuck_since, partner_payout_id FROM transactions WHERE id = $1',
      [id],
    );
    return rows[0]!;
  }

  /** Moves a transaction past its horizon and makes it due now. */
  async function agePastHorizon(id: string): Promise<void> {
    await pool.query(
      `UPDATE transactions SET created_at = now() - interval '1 hour', next_poll_at = now(), lease_until = NULL
        WHERE id = $1`,
      [id],
    );
  }

  async function execute(tenantId: string, amountMinor: bigint, waitMs = 1) {
    const instructionId = await newInstruction(world, tenantId, amountMinor);
    const { transaction } = await world.client.executeInstruction(
      executeRequest(tenantId, instructionId, { waitMs }),
    );
    return transaction!;
  }

  it('a pending payout the partner never received is failed with AB06 and never submitted again', async () => {
    const tenantId = tenant();
    // Every submission fails before the partner accepts it: the row stays pending.
    await setFaults(world, { submit: Array.from({ length: 50 }, () => ({ kind: 'error_before_accept' })) });
    const txn = await execute(tenantId, 4100n);
    expect(txn.status).toBe(TransactionStatus.PENDING);
    const failed = await eventually(
      () => row(txn.id),
      (r) => r.status === 'failed',
      HORIZON_MS + 8_000,
    );
    expect(failed).toMatchObject({
      status: 'failed',
      error_code: NOT_RECEIVED_CODE,
      partner_payout_id: null,
    });
    expect(await outboxEvents(world, txn.id)).toEqual(['transaction.failed']);
    // With the partner healthy again, nothing ever sends it: it is terminal.
    await setFaults(world, undefined);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await simStats(world)).submissions[txn.id] ?? 0).toBe(0);
    expect((await row(txn.id)).status).toBe('failed');
  });

  it('the partner knows the outcome: settled by the lookup at the horizon, with one event', async () => {
    const tenantId = tenant();
    // 52: settled at the partner, visible to polling only.
    const txn = await execute(tenantId, 5252n);
    expect(txn.status).toBe(TransactionStatus.PROCESSING);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await agePastHorizon(txn.id);
    const settled = await eventually(
      () => row(txn.id),
      (r) => r.status === 'completed',
    );
    expect(settled.status).toBe('completed');
    expect(await outboxEvents(world, txn.id)).toEqual(['transaction.completed']);
  });

  it('a processing payout the partner no longer knows is reported stuck, never failed', async () => {
    const tenantId = tenant();
    await setFaults(world, { callback: [{ kind: 'drop' }] });
    const txn = await execute(tenantId, 6254n);
    // As if the partner had lost the payout it acknowledged.
    await pool.query(`UPDATE transactions SET partner_payout_id = 'pp_forgotten' WHERE id = $1`, [txn.id]);
    await agePastHorizon(txn.id);
    const stuck = await eventually(
      () => row(txn.id),
      (r) => r.stuck_since !== null,
    );
    expect(stuck).toMatchObject({ status: 'processing', error_code: null });
    const listed = await world.client.listStuckTransactions({ tenantId });
    expect(listed.transactions).toEqual([
      expect.objectContaining({
        id: txn.id,
        tenantId,
        status: TransactionStatus.PROCESSING,
        rail: 'pix',
        horizonMs: BigInt(HORIZON_MS),
        partnerPayoutId: 'pp_forgotten',
      }),
    ]);
    expect(listed.transactions[0]!.ageMs).toBeGreaterThanOrEqual(3_600_000n);
    expect(listed.transactions[0]!.lastPolledAt).toBeDefined();
    expect(listed.transactions[0]!.stuckSince).toBeDefined();
    // It stays processing and keeps being asked about at the max backoff.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await row(txn.id)).status).toBe('processing');
    // Settled for the test's hygiene; nothing else depends on it.
    await pool.query(
      `UPDATE transactions SET status = 'failed', error_code = 'MS03', error_reason = 'test' WHERE id = $1`,
      [txn.id],
    );
  });

  it('a live transaction is listed from the moment its horizon passes, before any worker looks', async () => {
    const tenantId = tenant();
    await setFaults(world, { callback: [{ kind: 'drop' }] });
    const txn = await execute(tenantId, 7354n);
    await pool.query(
      `UPDATE transactions SET created_at = now() - interval '1 hour', next_poll_at = now() + interval '1 hour'
        WHERE id = $1`,
      [txn.id],
    );
    const listed = await world.client.listStuckTransactions({ tenantId, limit: 10 });
    expect(listed.transactions.map((t) => t.id)).toEqual([txn.id]);
    expect(listed.transactions[0]!.stuckSince).toBeUndefined();
    await expect(world.client.listStuckTransactions({ limit: 501 })).rejects.toMatchObject({
      rawMessage: 'limit must be between 1 and 500',
    });
    await pool.query(
      `UPDATE transactions SET status = 'failed', error_code = 'MS03', error_reason = 'test' WHERE id = $1`,
      [txn.id],
    );
  });

  it('the payout.transactions.stuck gauge counts stuck transactions by rail, read at most every refresh', async () => {
    const tenantId = tenant();
    await setFaults(world, { callback: [{ kind: 'drop' }] });
    const txn = await execute(tenantId, 8454n);
    await pool.query(`UPDATE transactions SET created_at = now() - interval '1 hour' WHERE id = $1`, [
      txn.id,
    ]);

    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
    const provider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    const store = createStuckStore(pool);
    const counted = jest.spyOn(store, 'countStuckByRail');
    const read = settlementHorizons().read({ SETTLEMENT_HORIZON_PIX_MS: String(HORIZON_MS) });
    if (!read.ok) throw new Error(read.problem);
    const gauge = registerStuckGauge({
      store,
      horizons: read.value,
      logger: silentLogger(),
      refreshMs: 60_000,
    });
    try {
      const collect = async () => {
        const { resourceMetrics } = await reader.collect();
        const metric = resourceMetrics.scopeMetrics
          .flatMap((s) => s.metrics)
          .find((m) => m.descriptor.name === STUCK_GAUGE);
        return Object.fromEntries(
          (metric?.dataPoints ?? []).map((p) => [String(p.attributes.rail), Number(p.value)]),
        );
      };
      const first = await collect();
      expect(first.pix).toBeGreaterThanOrEqual(1);
      expect(first['bre-b']).toBe(0);
      await collect();
      expect(counted).toHaveBeenCalledTimes(1);
    } finally {
      await gauge.stop();
      await provider.shutdown();
      metrics.disable();
      await pool.query(
        `UPDATE transactions SET status = 'failed', error_code = 'MS03', error_reason = 'test' WHERE id = $1`,
        [txn.id],
      );
    }
  });

  it('the partner unreachable past the horizon: reported stuck, not failed', async () => {
    const tenantId = tenant();
    await setFaults(world, { callback: [{ kind: 'drop' }] });
    const txn = await execute(tenantId, 9554n);
    await world.sim.close();
    await agePastHorizon(txn.id);
    const stuck = await eventually(
      () => row(txn.id),
      (r) => r.stuck_since !== null,
      10_000,
    );
    expect(stuck).toMatchObject({ status: 'processing', error_code: null });
    const listed = await world.client.listStuckTransactions({ tenantId });
    expect(listed.transactions.map((t) => t.id)).toEqual([txn.id]);
  });
});
