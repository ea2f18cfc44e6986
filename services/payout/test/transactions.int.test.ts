// GetTransaction and ListTransactions over real gRPC (HTTP/2) against real PostgreSQL: the money a
// transaction shows (docs/api/resources.md "Transactions") and keyset paging that stays exact while
// rows are inserted.
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { readErrorDetail } from '@qr-payout/platform/errors';
import { newId } from '@qr-payout/platform/ids';
import {
  AccountType,
  DecodedQrSchema,
  PointOfInitiation,
} from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { QuoteSchema, QuoteStatus } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { tenant, usePayoutOverGrpc } from './fixtures';

const decoded = create(DecodedQrSchema, {
  schemeId: 'BR.PIX',
  country: 'BR',
  currency: 'BRL',
  amount: { currency: 'BRL', amountMinor: 1234n },
  creditor: {
    name: 'Padaria Pao Quente',
    account: '12345678000195',
    accountType: AccountType.PIX_CNPJ,
    city: 'SAO PAULO',
  },
  confidence: 0.97,
  pointOfInitiation: PointOfInitiation.STATIC,
  rail: 'pix',
});

describe('payout transactions (reads)', () => {
  const grpc = usePayoutOverGrpc('payout_txn_test', 4);
  const { schema, admin } = grpc;

  /** An instruction (optionally with a USD quote) and its transaction, written as execute would. */
  async function seedTransaction(
    tenantId: string,
    opts: { fx?: boolean; status?: 'pending' | 'failed'; createdAt?: string } = {},
  ): Promise<string> {
    const now = new Date();
    const quote = opts.fx
      ? create(QuoteSchema, {
          id: newId('quo'),
          tenantId,
          rate: '5.4228',
          midRate: '5.45',
          spreadBps: 50,
          source: { currency: 'USD', amountMinor: 228n },
          target: { currency: 'BRL', amountMinor: 1234n },
          fee: { currency: 'USD', amountMinor: 0n },
          createdAt: timestampFromDate(now),
          expiresAt: timestampFromDate(new Date(now.getTime() + 60_000)),
          status: QuoteStatus.OPEN,
        })
      : undefined;
    const { instruction } = await grpc.client.createInstruction({
      tenantId,
      decoded,
      amount: { currency: 'BRL', amountMinor: 1234n },
      ...(quote ? { quote } : {}),
    });
    const id = newId('txn');
    const failed = opts.status === 'failed';
    await admin.query(
      `INSERT INTO "${schema}".transactions (id, tenant_id, instruction_id, scheme_id, rail, status,
         amount_currency, amount_minor, pay_currency, pay_amount_minor, payer_name, payer_account,
         payer_tax_id, error_code, error_reason, created_at)
       VALUES ($1, $2, $3, 'BR.PIX', 'pix', $4, 'BRL', 1234, $5, $6, 'Ana', '0001', '52998224725',
         $7, $8, COALESCE($9::timestamptz, now()))`,
      [
        id,
        tenantId,
        instruction!.id,
        failed ? 'failed' : 'pending',
        opts.fx ? 'USD' : 'BRL',
        opts.fx ? 228 : 1234,
        failed ? 'AC03' : null,
        failed ? 'invalid creditor account' : null,
        opts.createdAt ?? null,
      ],
    );
    return id;
  }

  /** Every page of the tenant's list, following next_cursor; `between` runs before each next page. */
  async function listAll(
    tenantId: string,
    limit: number,
    between: () => Promise<unknown> = async () => undefined,
  ): Promise<string[]> {
    const ids: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 100; pages++) {
      const [res] = await Promise.all([
        grpc.client.listTransactions({ tenantId, page: { limit, cursor } }),
        pages > 0 ? between() : undefined,
      ]);
      ids.push(...res.transactions.map((t) => t.id));
      cursor = res.pageInfo?.nextCursor ?? '';
      if (cursor === '') return ids;
      await between();
    }
    throw new Error('paging did not end');
  }

  it('GetTransaction shows the money: amount, creditor, scheme, country and the applied quote', async () => {
    const tenantId = tenant();
    const plain = await seedTransaction(tenantId);
    const fx = await seedTransaction(tenantId, { fx: true });
    const { transaction } = await grpc.client.getTransaction({ tenantId, transactionId: plain });
    expect(transaction).toMatchObject({
      schemeId: 'BR.PIX',
      country: 'BR',
      creditor: { name: 'Padaria Pao Quente', account: '12345678000195', accountType: AccountType.PIX_CNPJ },
      amount: { currency: 'BRL', amountMinor: 1234n },
      payAmount: { currency: 'BRL', amountMinor: 1234n },
    });
    expect(transaction?.quote).toBeUndefined();
    const converted = (await grpc.client.getTransaction({ tenantId, transactionId: fx })).transaction;
    expect(converted).toMatchObject({
      payAmount: { currency: 'USD', amountMinor: 228n },
      quote: { id: expect.stringMatching(/^quo_/), rate: '5.4228' },
    });
  });

  it('lists newest first, filters by status and created range, scoped to the tenant', async () => {
    const tenantId = tenant();
    const old = await seedTransaction(tenantId, { createdAt: '2026-01-01T00:00:00.000001Z' });
    const failed = await seedTransaction(tenantId, { status: 'failed', createdAt: '2026-01-02T00:00:00Z' });
    const recent = await seedTransaction(tenantId, { fx: true });
    await seedTransaction(tenant()); // another tenant's: never listed

    const all = await grpc.client.listTransactions({ tenantId });
    expect(all.transactions.map((t) => t.id)).toEqual([recent, failed, old]);
    expect(all.transactions[0]?.quote?.rate).toBe('5.4228');
    expect(all.pageInfo?.nextCursor).toBe('');

    const onlyFailed = await grpc.client.listTransactions({ tenantId, status: TransactionStatus.FAILED });
    expect(onlyFailed.transactions.map((t) => t.id)).toEqual([failed]);
    expect(onlyFailed.transactions[0]?.error?.code).toBe('AC03');

    const range = await grpc.client.listTransactions({
      tenantId,
      createdGte: timestampFromDate(new Date('2026-01-01T00:00:00.001Z')),
      createdLt: timestampFromDate(new Date('2026-01-03T00:00:00Z')),
    });
    expect(range.transactions.map((t) => t.id)).toEqual([failed]);
  });

  it('pages rows sharing one created_at by id, with no duplicates and no skips', async () => {
    const tenantId = tenant();
    const same = '2026-02-03T04:05:06.123456Z';
    const seeded: string[] = [];
    for (let i = 0; i < 7; i++) seeded.push(await seedTransaction(tenantId, { createdAt: same }));
    const listed = await listAll(tenantId, 3);
    expect(listed).toEqual([...seeded].sort().reverse());
  });

  it('stays exact while transactions are inserted between and during page reads', async () => {
    const tenantId = tenant();
    const before: string[] = [];
    for (let i = 0; i < 12; i++) before.push(await seedTransaction(tenantId));
    const inserted: string[] = [];
    const listed = await listAll(tenantId, 4, async () => {
      inserted.push(await seedTransaction(tenantId));
      inserted.push(await seedTransaction(tenantId));
    });
    // No duplicates; every row that existed when paging started is listed exactly once.
    expect(new Set(listed).size).toBe(listed.length);
    expect(before.filter((id) => !listed.includes(id))).toEqual([]);
    // Rows inserted after the first page are newer than it: they never shift a later page.
    expect(listed.filter((id) => inserted.includes(id))).toEqual([]);
    expect([...listed].sort()).toEqual([...before].sort());
  });

  it.each([
    ['a limit over 100', { page: { limit: 101, cursor: '' } }, 'limit'],
    ['a cursor not of ours', { page: { limit: 0, cursor: 'bm90LWEtY3Vyc29y' } }, 'cursor'],
    [
      'a reversed range',
      {
        createdGte: timestampFromDate(new Date('2026-01-02T00:00:00Z')),
        createdLt: timestampFromDate(new Date('2026-01-01T00:00:00Z')),
      },
      'created_lt',
    ],
  ])('refuses %s with InvalidArgument naming the parameter', async (_what, init, field) => {
    let caught: unknown;
    try {
      await grpc.client.listTransactions({ tenantId: tenant(), ...init });
    } catch (err) {
      caught = err;
    }
    expect(ConnectError.from(caught).code).toBe(Code.InvalidArgument);
    expect(readErrorDetail(caught)).toMatchObject({ tag: 'ValidationError', field });
  });
});
