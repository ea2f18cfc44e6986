import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TransactionSchema, TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance } from 'fastify';
import { startRouteTestApp, TEST_API_KEY } from './test-app';

// GET /v1/transactions/{id} through the real app with a fake payout: the amounts are shown with
// their currency's ISO 4217 digits (@qr-payout/platform/money), three for KWD, which fx quotes.

const TXN_ID = 'txn_01JD0000000000000000000001';
const at = timestampFromDate(new Date('2026-01-02T03:04:05.678Z'));

let app: FastifyInstance | undefined;

afterAll(() => app?.close());

describe('GET /v1/transactions/{id}', () => {
  it('shows a KWD wallet amount with three decimals, as the JSON text the client reads', async () => {
    const transaction = create(TransactionSchema, {
      id: TXN_ID,
      instructionId: 'ins_01JD0000000000000000000001',
      status: TransactionStatus.COMPLETED,
      rail: 'pix',
      schemeId: 'BR.PIX',
      country: 'BR',
      creditor: { name: 'Padaria', account: '+5511999999999' },
      amount: { currency: 'BRL', amountMinor: 5_000n },
      payAmount: { currency: 'KWD', amountMinor: 2_817n },
      quote: { id: 'quo_01JD0000000000000000000001', rate: '17.75' },
      createdAt: at,
      updatedAt: at,
      statusHistory: [
        { status: TransactionStatus.PENDING, at },
        { status: TransactionStatus.COMPLETED, at },
      ],
    });
    const started = await startRouteTestApp({
      payout: { getTransaction: async () => ({ transaction }) },
    } as never);
    app = started.app;
    const res = await fetch(`${started.base}/v1/transactions/${TXN_ID}`, {
      headers: { 'x-api-key': TEST_API_KEY },
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain('"amount":50,"currency":"BRL"');
    expect(text).toContain('"walletAmount":2.817,"walletCurrency":"KWD"');
  });
});
