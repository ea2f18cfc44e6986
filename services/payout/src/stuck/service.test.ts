import { create } from '@bufbuild/protobuf';
import {
  ListStuckTransactionsRequestSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { DEFAULT_SETTLEMENT_HORIZON_MS, type SettlementHorizons } from './horizons';
import { createStuckService, stuckLimit } from './service';
import type { ListedStuckTransaction, StuckStore } from './store';

const HORIZONS: SettlementHorizons = {
  pix: DEFAULT_SETTLEMENT_HORIZON_MS,
  'transferencias-3.0': DEFAULT_SETTLEMENT_HORIZON_MS,
  'bre-b': DEFAULT_SETTLEMENT_HORIZON_MS,
  'cce-inmediatas': DEFAULT_SETTLEMENT_HORIZON_MS,
  'bolivia-qr-interoperable': DEFAULT_SETTLEMENT_HORIZON_MS,
};

const ROW: ListedStuckTransaction = {
  id: 'txn_1',
  tenantId: 'ten_1',
  status: 'pending',
  rail: 'pix',
  createdAt: new Date('2026-11-24T12:00:00Z'),
  ageMs: 400_000.6,
  horizonMs: 300_000,
  partnerPayoutId: null,
  lastPolledAt: null,
  stuckSince: null,
};

describe('stuckLimit', () => {
  it('0 is the default, 1..500 pass, anything else is a ValidationError naming limit', () => {
    expect(stuckLimit(0)).toBe(100);
    expect(stuckLimit(1)).toBe(1);
    expect(stuckLimit(500)).toBe(500);
    for (const bad of [-1, 501, 2_147_483_647]) {
      expect(() => stuckLimit(bad)).toThrow('limit must be between 1 and 500');
    }
  });
});

describe('ListStuckTransactions', () => {
  it('passes the tenant filter (empty: every tenant) and maps rows to messages', async () => {
    const calls: unknown[] = [];
    const store: StuckStore = {
      listStuck: async (_h, opts) => {
        calls.push(opts);
        return [ROW];
      },
      countStuckByRail: async () => new Map(),
    };
    const service = createStuckService({ store, horizons: HORIZONS });
    const [message] = await service.listStuckTransactions(create(ListStuckTransactionsRequestSchema, {}));
    await service.listStuckTransactions(
      create(ListStuckTransactionsRequestSchema, { tenantId: 'ten_1', limit: 5 }),
    );
    expect(calls).toEqual([
      { tenantId: undefined, limit: 100 },
      { tenantId: 'ten_1', limit: 5 },
    ]);
    expect(message).toMatchObject({
      id: 'txn_1',
      tenantId: 'ten_1',
      status: TransactionStatus.PENDING,
      ageMs: 400_001n,
      horizonMs: 300_000n,
      partnerPayoutId: '',
    });
    expect(message?.lastPolledAt).toBeUndefined();
    expect(message?.stuckSince).toBeUndefined();
  });
});
