// Execute under concurrency and partner faults: one key → one transaction → one partner payout,
// whatever the partner's answers do (fault injection of the partner simulator, /_sim/faults).
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import {
  eventually,
  executeRequest,
  newInstruction,
  outboxEvents,
  PARTNER_TIMEOUT_MS,
  setFaults,
  simStats,
  startWorld,
  tenant,
  type World,
} from './execute-harness';

describe('payout execute: concurrency and partner faults', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
  });

  afterEach(async () => {
    await setFaults(world, undefined);
  });

  afterAll(async () => {
    await world?.close();
  });

  async function settledTransaction(tenantId: string, transactionId: string) {
    return eventually(
      async () => (await world.client.getTransaction({ tenantId, transactionId })).transaction!,
      (t) => t.status === TransactionStatus.COMPLETED || t.status === TransactionStatus.FAILED,
      10_000,
    );
  }

  it('100 concurrent executes with one key: one transaction, one partner submission', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 3000n);
    const request = executeRequest(tenantId, instructionId);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => world.client.executeInstruction(request)),
    );
    const ids = new Set(answers.map((a) => a.transaction?.id));
    expect(ids.size).toBe(1);
    const [transactionId] = [...ids] as [string];
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    const { rows } = await world.admin.query(
      `SELECT count(*)::int AS n FROM "${world.schema}".transactions WHERE instruction_id = $1`,
      [instructionId],
    );
    expect(rows[0].n).toBe(1);
    expect((await settledTransaction(tenantId, transactionId)).status).toBe(TransactionStatus.COMPLETED);
    expect((await simStats(world)).submissions[transactionId]).toBe(1);
    expect(await outboxEvents(world, transactionId)).toEqual(['transaction.completed']);
  });

  it.each([
    ['error_before_accept', { kind: 'error_before_accept' }],
    ['error_after_accept', { kind: 'error_after_accept' }],
    ['timeout_after_accept', { kind: 'timeout_after_accept', ms: PARTNER_TIMEOUT_MS * 3 }],
  ])('%s: no double submission, and terminal in the end', async (_name, fault) => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 3100n);
    await setFaults(world, { submit: [fault] });
    const request = executeRequest(tenantId, instructionId);
    const { transaction } = await world.client.executeInstruction(request);
    // Whatever execute could tell (pending after an unknown answer, or already settled), a retry
    // with the same key answers the same transaction as it stands, never a second payout.
    const retry = await world.client.executeInstruction(request);
    expect(retry.replayed).toBe(true);
    expect(retry.transaction?.id).toBe(transaction?.id);
    const settled = await settledTransaction(tenantId, transaction!.id);
    expect(settled.status).toBe(TransactionStatus.COMPLETED);
    const stats = await simStats(world);
    expect(stats.submissions[transaction!.id]).toBe(1);
    expect(await outboxEvents(world, transaction!.id)).toEqual(['transaction.completed']);
  });

  it('a dropped callback: the polling worker settles the transaction', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 3200n);
    await setFaults(world, { callback: [{ kind: 'drop' }] });
    const { transaction } = await world.client.executeInstruction(
      executeRequest(tenantId, instructionId, { waitMs: 300 }),
    );
    expect(transaction?.status).toBe(TransactionStatus.PROCESSING);
    expect((await settledTransaction(tenantId, transaction!.id)).status).toBe(TransactionStatus.COMPLETED);
    expect(world.callbacks.get(transaction!.id)).toBeUndefined();
    expect(await outboxEvents(world, transaction!.id)).toEqual(['transaction.completed']);
  });
});
