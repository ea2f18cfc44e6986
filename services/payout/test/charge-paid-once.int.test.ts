// Charges paid once (README) over real gRPC, real PostgreSQL and the real partner simulator:
// two instructions resolved from one dynamic Pix charge can make only one live payment, whatever
// the tenant or the Idempotency-Key; a payment that failed frees the charge; static QRs are
// unaffected; the same key and body is still the idempotent replay.
import { create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { readErrorDetail } from '@qr-payout/platform/errors';
import { newId } from '@qr-payout/platform/ids';
import {
  type DecodedQr,
  DecodedQrSchema,
  PointOfInitiation,
} from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { failure } from '@qr-payout/test-kit/service';
import {
  executeRequest,
  newInstruction,
  pixQr,
  simStats,
  startWorld,
  tenant,
  type World,
} from './execute-harness';

/** A fresh dynamic Pix charge: its location (26/25) and the txid of its signed payload. */
function newCharge() {
  const id = newId('loc').slice(4).toLowerCase();
  return { location: `psp.example.com/pix/v2/qr/${id}`, txid: `tx${id}` };
}

/** What the decoder makes of a dynamic Pix charge once its payload is verified. */
function dynamicPixQr(charge: { location: string; txid: string }, amountMinor: bigint): DecodedQr {
  const qr = pixQr(amountMinor);
  return create(DecodedQrSchema, {
    ...qr,
    pointOfInitiation: PointOfInitiation.DYNAMIC,
    references: { pix_location: charge.location, txid: charge.txid, pix_revision: '0' },
  });
}

describe('a single-use charge is paid once', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  async function chargeInstruction(
    tenantId: string,
    charge: { location: string; txid: string },
    amountMinor = 2590n,
  ): Promise<string> {
    const { instruction } = await world.client.createInstruction({
      tenantId,
      decoded: dynamicPixQr(charge, amountMinor),
      amount: { currency: 'BRL', amountMinor },
    });
    return instruction!.id;
  }

  async function transactionsOfCharge(charge: { location: string; txid: string }) {
    const { rows } = await world.admin.query<{ id: string; tenant_id: string; status: string }>(
      `SELECT id, tenant_id, status FROM "${world.schema}".transactions WHERE charge_key = $1 ORDER BY created_at`,
      [`pix:${charge.location}#${charge.txid}`],
    );
    return rows;
  }

  it('the instruction remembers the charge, and its transaction copies it; a static QR has none', async () => {
    const tenantId = tenant();
    const charge = newCharge();
    const dynamicId = await chargeInstruction(tenantId, charge);
    const staticId = await newInstruction(world, tenantId, 1250n);
    const { rows } = await world.admin.query<{ id: string; charge_key: string | null }>(
      `SELECT id, charge_key FROM "${world.schema}".instructions WHERE id = ANY($1) ORDER BY id`,
      [[dynamicId, staticId]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.charge_key]))).toEqual({
      [dynamicId]: `pix:${charge.location}#${charge.txid}`,
      [staticId]: null,
    });
    const { transaction } = await world.client.executeInstruction(executeRequest(tenantId, dynamicId));
    expect(await transactionsOfCharge(charge)).toEqual([
      { id: transaction!.id, tenant_id: tenantId, status: 'completed' },
    ]);
  });

  it('a second instruction of the charge, with another key: 409 ChargeAlreadyPaid naming our transaction', async () => {
    const tenantId = tenant();
    const charge = newCharge();
    const first = await chargeInstruction(tenantId, charge);
    const second = await chargeInstruction(tenantId, charge);
    const firstRequest = executeRequest(tenantId, first);
    const { transaction } = await world.client.executeInstruction(firstRequest);
    expect(transaction?.status).toBe(TransactionStatus.COMPLETED);

    const secondRequest = executeRequest(tenantId, second);
    const refused = await failure(world.client.executeInstruction(secondRequest));
    expect(refused.code).toBe(Code.AlreadyExists);
    const detail = readErrorDetail(refused);
    expect(detail).toMatchObject({
      tag: 'ChargeAlreadyPaid',
      field: 'instruction_id',
      metadata: { instruction_id: second, transaction_id: transaction!.id },
    });
    expect(detail?.message).toContain(transaction!.id);
    // Nothing was written for the refused request: not its key, not a transaction, no payout.
    const keys = await world.admin.query(
      `SELECT 1 FROM "${world.schema}".idempotency_keys WHERE tenant_id = $1 AND key = $2`,
      [tenantId, secondRequest.idempotencyKey],
    );
    expect(keys.rowCount).toBe(0);
    expect(await transactionsOfCharge(charge)).toHaveLength(1);
    // A retry with that key is refused the same way (nothing frozen), and so is yet another key.
    expect(readErrorDetail(await failure(world.client.executeInstruction(secondRequest)))?.tag).toBe(
      'ChargeAlreadyPaid',
    );
    expect(
      readErrorDetail(await failure(world.client.executeInstruction(executeRequest(tenantId, second))))?.tag,
    ).toBe('ChargeAlreadyPaid');

    // The first request's key and body: still the idempotent replay of the one payment.
    const replay = await world.client.executeInstruction(firstRequest);
    expect(replay.replayed).toBe(true);
    expect(replay.transaction).toEqual(transaction);
    expect((await simStats(world)).submissions[transaction!.id]).toBe(1);
  });

  it("another tenant's instruction of the same charge: refused, without the other tenant's transaction id", async () => {
    const payerTenant = tenant();
    const otherTenant = tenant();
    const charge = newCharge();
    const paidBy = await chargeInstruction(payerTenant, charge);
    const { transaction } = await world.client.executeInstruction(executeRequest(payerTenant, paidBy));
    expect(transaction?.status).toBe(TransactionStatus.COMPLETED);

    const other = await chargeInstruction(otherTenant, charge);
    const refused = await failure(world.client.executeInstruction(executeRequest(otherTenant, other)));
    expect(refused.code).toBe(Code.AlreadyExists);
    const detail = readErrorDetail(refused);
    expect(detail?.tag).toBe('ChargeAlreadyPaid');
    expect(detail?.metadata).toEqual({ instruction_id: other });
    expect(detail?.message).not.toContain(transaction!.id);
    expect(detail?.message).not.toMatch(/txn_/);
    expect(await transactionsOfCharge(charge)).toHaveLength(1);
  });

  it('a charge whose payment failed can be paid again', async () => {
    const tenantId = tenant();
    const charge = newCharge();
    // 51: the partner rejects at once (AC03).
    const rejected = await chargeInstruction(tenantId, charge, 2551n);
    const { transaction: failed } = await world.client.executeInstruction(executeRequest(tenantId, rejected));
    expect(failed?.status).toBe(TransactionStatus.FAILED);

    const retried = await chargeInstruction(tenantId, charge, 2551n);
    const { transaction: again } = await world.client.executeInstruction(executeRequest(tenantId, retried));
    expect(again?.id).not.toBe(failed?.id);
    expect(again?.status).toBe(TransactionStatus.FAILED);
    // And once a payment of it completes, the charge is taken.
    const paid = await chargeInstruction(tenantId, charge, 2590n);
    const { transaction: completed } = await world.client.executeInstruction(executeRequest(tenantId, paid));
    expect(completed?.status).toBe(TransactionStatus.COMPLETED);
    const late = await chargeInstruction(tenantId, charge, 2590n);
    expect(
      readErrorDetail(await failure(world.client.executeInstruction(executeRequest(tenantId, late))))?.tag,
    ).toBe('ChargeAlreadyPaid');
    expect((await transactionsOfCharge(charge)).map((t) => t.status)).toEqual([
      'failed',
      'failed',
      'completed',
    ]);
  });

  it('a payment still in flight holds the charge too', async () => {
    const tenantId = tenant();
    const charge = newCharge();
    // 54: processing for PARTNER_SIM_SLOW_SETTLE_MS; a short wait answers it processing.
    const slow = await chargeInstruction(tenantId, charge, 2554n);
    const { transaction } = await world.client.executeInstruction(
      executeRequest(tenantId, slow, { waitMs: 50 }),
    );
    expect(transaction?.status).toBe(TransactionStatus.PROCESSING);
    const second = await chargeInstruction(tenantId, charge, 2554n);
    expect(
      readErrorDetail(await failure(world.client.executeInstruction(executeRequest(tenantId, second)))),
    ).toMatchObject({ tag: 'ChargeAlreadyPaid', metadata: { transaction_id: transaction!.id } });
  });

  it('ten instructions of one charge executed at once, across two tenants: one payment, nine refusals', async () => {
    const tenants = [tenant(), tenant()];
    const charge = newCharge();
    const instructions = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const tenantId = tenants[i % 2] as string;
        return { tenantId, id: await chargeInstruction(tenantId, charge) };
      }),
    );
    const outcomes = await Promise.allSettled(
      instructions.map(({ tenantId, id }) => world.client.executeInstruction(executeRequest(tenantId, id))),
    );
    const paid = outcomes.filter((o) => o.status === 'fulfilled');
    expect(paid).toHaveLength(1);
    const tags = outcomes
      .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      .map((o) => readErrorDetail(ConnectError.from(o.reason))?.tag);
    expect(tags).toEqual(Array(9).fill('ChargeAlreadyPaid'));
    expect(await transactionsOfCharge(charge)).toHaveLength(1);
  });

  it('one instruction of a charge executed at once with ten keys: one payment, InstructionAlreadyExecuted', async () => {
    const tenantId = tenant();
    const charge = newCharge();
    const id = await chargeInstruction(tenantId, charge);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => world.client.executeInstruction(executeRequest(tenantId, id))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const tags = outcomes
      .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      .map((o) => readErrorDetail(ConnectError.from(o.reason))?.tag);
    expect(tags).toEqual(Array(9).fill('InstructionAlreadyExecuted'));
  });

  it('a static QR is reusable: two instructions of it are both paid', async () => {
    const tenantId = tenant();
    const paid = await Promise.all(
      [1, 2].map(async () => {
        const id = await newInstruction(world, tenantId, 1250n);
        return (await world.client.executeInstruction(executeRequest(tenantId, id))).transaction;
      }),
    );
    expect(paid.map((t) => t?.status)).toEqual([TransactionStatus.COMPLETED, TransactionStatus.COMPLETED]);
  });
});
