import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Code, readErrorDetail } from '@qr-payout/platform';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { createTransactionService } from './service';
import type { TransactionRow, TransactionStore } from './store';

const created = new Date('2026-01-02T03:04:05.678Z');
const updated = new Date('2026-01-02T03:04:06.789Z');

function row(overrides: Partial<TransactionRow> = {}): TransactionRow {
  return {
    id: 'txn_01JD0000000000000000000001',
    tenant_id: 'ten_a',
    instruction_id: 'ins_01JD0000000000000000000001',
    scheme_id: 'BR.PIX',
    rail: 'pix',
    status: 'pending',
    amount_currency: 'BRL',
    amount_minor: '9007199254740993',
    pay_currency: 'USD',
    pay_amount_minor: '1999',
    callback_url: null,
    result_reference: null,
    result_settled_at: null,
    error_code: null,
    error_reason: null,
    error_partner_status: null,
    created_at: created,
    updated_at: updated,
    ...overrides,
  };
}

// An in-memory store with the same tenant scoping contract as the SQL one.
function storeOf(rows: TransactionRow[]): TransactionStore & { calls: number } {
  const store = {
    calls: 0,
    async findTransaction(tenantId: string, transactionId: string) {
      store.calls += 1;
      return rows.find((r) => r.tenant_id === tenantId && r.id === transactionId);
    },
  };
  return store;
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    return readErrorDetail(err);
  }
  throw new Error('expected a rejection');
}

describe('getTransaction', () => {
  it('returns the stored transaction with exact money and timestamps', async () => {
    const service = createTransactionService({
      store: storeOf([row({ callback_url: 'https://x.test/cb' })]),
    });
    const txn = await service.getTransaction('ten_a', 'txn_01JD0000000000000000000001');
    expect(txn).toMatchObject({
      id: 'txn_01JD0000000000000000000001',
      tenantId: 'ten_a',
      instructionId: 'ins_01JD0000000000000000000001',
      status: TransactionStatus.PENDING,
      rail: 'pix',
      schemeId: 'BR.PIX',
      amount: { currency: 'BRL', amountMinor: 9007199254740993n },
      payAmount: { currency: 'USD', amountMinor: 1999n },
      callbackUrl: 'https://x.test/cb',
    });
    expect(timestampDate(txn.createdAt!).toISOString()).toBe('2026-01-02T03:04:05.678Z');
    expect(timestampDate(txn.updatedAt!).toISOString()).toBe('2026-01-02T03:04:06.789Z');
    expect(txn.result).toBeUndefined();
    expect(txn.error).toBeUndefined();
  });

  it('carries the result of a completed transaction', async () => {
    const settled = new Date('2026-01-02T03:04:07.000Z');
    const service = createTransactionService({
      store: storeOf([row({ status: 'completed', result_reference: 'E123', result_settled_at: settled })]),
    });
    const txn = await service.getTransaction('ten_a', 'txn_01JD0000000000000000000001');
    expect(txn.status).toBe(TransactionStatus.COMPLETED);
    expect(txn.result?.reference).toBe('E123');
    expect(timestampDate(txn.result!.settledAt!).getTime()).toBe(settled.getTime());
    expect(txn.error).toBeUndefined();
  });

  it('carries the error of a failed transaction', async () => {
    const service = createTransactionService({
      store: storeOf([
        row({
          status: 'failed',
          error_code: 'AC03',
          error_reason: 'invalid creditor account',
          error_partner_status: 'RJCT',
        }),
      ]),
    });
    const txn = await service.getTransaction('ten_a', 'txn_01JD0000000000000000000001');
    expect(txn.status).toBe(TransactionStatus.FAILED);
    expect(txn.error).toMatchObject({
      code: 'AC03',
      reason: 'invalid creditor account',
      partnerStatus: 'RJCT',
    });
    expect(txn.result).toBeUndefined();
  });

  it.each([
    ['an unknown id', 'ten_a', 'txn_01JD0000000000000000000009'],
    ["another tenant's id", 'ten_b', 'txn_01JD0000000000000000000001'],
  ])('answers NotFoundError for %s', async (_what, tenantId, transactionId) => {
    const service = createTransactionService({ store: storeOf([row()]) });
    expect(await rejection(service.getTransaction(tenantId, transactionId))).toMatchObject({
      tag: 'NotFoundError',
      code: Code.NotFound,
      field: 'transaction_id',
    });
  });

  it('answers NotFoundError for an empty or oversized id without asking the store', async () => {
    const store = storeOf([row()]);
    const service = createTransactionService({ store });
    for (const id of ['', `txn_${'A'.repeat(80)}`]) {
      expect((await rejection(service.getTransaction('ten_a', id)))?.tag).toBe('NotFoundError');
    }
    expect(store.calls).toBe(0);
  });

  it('refuses a call without a tenant', async () => {
    const service = createTransactionService({ store: storeOf([row()]) });
    expect(await rejection(service.getTransaction('', 'txn_01JD0000000000000000000001'))).toMatchObject({
      tag: 'ValidationError',
      code: Code.InvalidArgument,
      field: 'tenant_id',
    });
  });
});
