// A stored transaction for unit tests of what is built from one: a pending Pix payment of
// 100.00 BRL without FX, created and last changed at the same instant; tests override what they vary.
import type { StoredTransaction } from '../../src/transactions/transaction';

export const STORED_AT = new Date('2026-01-02T03:04:05.678Z');

export function storedTransaction(overrides: Partial<StoredTransaction> = {}): StoredTransaction {
  return {
    id: 'txn_01JD0000000000000000000001',
    tenantId: 'ten_a',
    instructionId: 'ins_01JD0000000000000000000001',
    schemeId: 'BR.PIX',
    rail: 'pix',
    status: 'pending',
    amountCurrency: 'BRL',
    amountMinor: 10_000n,
    payCurrency: 'BRL',
    payAmountMinor: 10_000n,
    callbackUrl: null,
    resultReference: null,
    resultSettledAt: null,
    errorCode: null,
    errorReason: null,
    errorPartnerStatus: null,
    createdAt: STORED_AT,
    updatedAt: STORED_AT,
    processingAt: null,
    ...overrides,
  };
}
