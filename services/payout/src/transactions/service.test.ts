import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, readErrorDetail } from '@qr-payout/platform/errors';
import { decodeKeysetCursor, encodeKeysetCursor } from '@qr-payout/platform/paging';
import {
  ListTransactionsRequestSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { storedTransaction } from '../../test/support/stored-transaction';
import { createTransactionService } from './service';
import type { TransactionListFilter, TransactionStore } from './store';
import type { DescribedTransaction } from './transaction';

const created = new Date('2026-01-02T03:04:05.678Z');
const updated = new Date('2026-01-02T03:04:06.789Z');

function row(overrides: Partial<DescribedTransaction> = {}): DescribedTransaction {
  return {
    ...storedTransaction({
      amountMinor: 9007199254740993n,
      payCurrency: 'USD',
      payAmountMinor: 1999n,
      createdAt: created,
      updatedAt: updated,
    }),
    country: 'BR',
    creditor: { name: 'Padaria', account: '+5511999999999', accountType: 'ACCOUNT_TYPE_PIX_KEY_PHONE' },
    quoteId: 'quo_01JD0000000000000000000001',
    quoteRate: '5.4228',
    ...overrides,
  };
}

// An in-memory store with the same tenant scoping contract as the SQL one.
function storeOf(
  rows: DescribedTransaction[],
): TransactionStore & { calls: number; filters: TransactionListFilter[] } {
  const store = {
    calls: 0,
    filters: [] as TransactionListFilter[],
    async findTransaction(tenantId: string, transactionId: string) {
      store.calls += 1;
      return rows.find((r) => r.tenantId === tenantId && r.id === transactionId);
    },
    async listTransactions(filter: TransactionListFilter) {
      store.filters.push(filter);
      const page = rows.slice(0, filter.limit);
      return {
        rows: page,
        cursors: page.map((r) => ({ createdAt: '2026-01-02T03:04:05.678901Z', id: r.id })),
      };
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
      store: storeOf([row({ callbackUrl: 'https://x.test/cb' })]),
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
      country: 'BR',
      creditor: { name: 'Padaria', account: '+5511999999999' },
      quote: { id: 'quo_01JD0000000000000000000001', rate: '5.4228' },
    });
    expect(timestampDate(txn.createdAt!).toISOString()).toBe('2026-01-02T03:04:05.678Z');
    expect(timestampDate(txn.updatedAt!).toISOString()).toBe('2026-01-02T03:04:06.789Z');
    expect(txn.result).toBeUndefined();
    expect(txn.error).toBeUndefined();
  });

  it('carries the result of a completed transaction', async () => {
    const settled = new Date('2026-01-02T03:04:07.000Z');
    const service = createTransactionService({
      store: storeOf([row({ status: 'completed', resultReference: 'E123', resultSettledAt: settled })]),
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
          errorCode: 'AC03',
          errorReason: 'invalid creditor account',
          errorPartnerStatus: 'RJCT',
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

describe('listTransactions', () => {
  const ids = ['01', '02', '03'].map((n) => `txn_01JD00000000000000000000${n}`);
  const list = (init: Parameters<typeof create<typeof ListTransactionsRequestSchema>>[1]) =>
    create(ListTransactionsRequestSchema, { tenantId: 'ten_a', ...init });

  it('pages with one extra row to tell whether a next page exists', async () => {
    const store = storeOf(ids.map((id) => row({ id })));
    const service = createTransactionService({ store });
    const page = await service.listTransactions(list({ page: { limit: 2, cursor: '' } }));
    expect(page.transactions.map((t) => t.id)).toEqual(ids.slice(0, 2));
    expect(page.transactions[0]?.country).toBe('BR');
    expect(store.filters[0]).toMatchObject({
      tenantId: 'ten_a',
      limit: 3,
      after: undefined,
      status: undefined,
    });
    expect(decodeKeysetCursor(page.nextCursor, 'txn')).toEqual({
      createdAt: '2026-01-02T03:04:05.678901Z',
      id: ids[1],
    });
    const last = await service.listTransactions(list({ page: { limit: 3, cursor: page.nextCursor } }));
    expect(last.nextCursor).toBe('');
    expect(store.filters[1]?.after).toEqual({ createdAt: '2026-01-02T03:04:05.678901Z', id: ids[1] });
  });

  it('passes status and the created range, and applies the default page size', async () => {
    const store = storeOf([]);
    const service = createTransactionService({ store });
    await service.listTransactions(
      list({
        status: TransactionStatus.FAILED,
        createdGte: timestampFromDate(created),
        createdLt: timestampFromDate(updated),
      }),
    );
    expect(store.filters[0]).toMatchObject({
      status: 'failed',
      createdGte: created,
      createdLt: updated,
      limit: 21,
    });
  });

  it.each([
    ['a limit over 100', { page: { limit: 101, cursor: '' } }, 'limit'],
    ['a negative limit', { page: { limit: -1, cursor: '' } }, 'limit'],
    ['a cursor not of ours', { page: { limit: 0, cursor: 'abc' } }, 'cursor'],
    [
      'a cursor with another id kind',
      {
        page: {
          limit: 0,
          cursor: encodeKeysetCursor({ createdAt: '2026-01-02T03:04:05.678901Z', id: 'ins_x' }),
        },
      },
      'cursor',
    ],
    ['an unknown status', { status: 9 as TransactionStatus }, 'status'],
    [
      'a reversed range',
      { createdGte: timestampFromDate(updated), createdLt: timestampFromDate(created) },
      'created_lt',
    ],
  ])('refuses %s as a ValidationError naming the parameter', async (_what, init, field) => {
    const store = storeOf([]);
    const service = createTransactionService({ store });
    expect(await rejection(service.listTransactions(list(init)))).toMatchObject({
      tag: 'ValidationError',
      code: Code.InvalidArgument,
      field,
    });
    expect(store.filters).toEqual([]);
  });
});
