import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { MoneySchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import {
  AppliedQuoteSchema,
  type Transaction,
  TransactionSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { fromMinorUnits, minorUnitsText } from './money';
import { toPublicTransaction } from './public-transaction';

const at = timestampFromDate(new Date('2026-01-02T03:04:05.678Z'));

function txn(init: Partial<Transaction> = {}) {
  const base = create(TransactionSchema, {
    id: 'txn_01JD0000000000000000000001',
    instructionId: 'ins_01JD0000000000000000000001',
    status: TransactionStatus.COMPLETED,
    rail: 'pix',
    schemeId: 'BR.PIX',
    country: 'BR',
    creditor: { name: 'Padaria', account: '+5511999999999', city: 'SAO PAULO' },
    amount: { currency: 'BRL', amountMinor: 1234n },
    payAmount: { currency: 'BRL', amountMinor: 1234n },
    createdAt: at,
    updatedAt: at,
    result: { reference: 'E1', settledAt: at },
  });
  return Object.assign(base, init);
}

describe('toPublicTransaction', () => {
  it('shows the transaction fields (docs/api/resources.md "Transactions") and its money', () => {
    expect(toPublicTransaction(txn())).toEqual({
      id: 'txn_01JD0000000000000000000001',
      instructionId: 'ins_01JD0000000000000000000001',
      status: 'completed',
      rail: 'pix',
      createdAt: '2026-01-02T03:04:05.678Z',
      updatedAt: '2026-01-02T03:04:05.678Z',
      result: { reference: 'E1', settledAt: '2026-01-02T03:04:05.678Z' },
      error: null,
      amount: 12.34,
      currency: 'BRL',
      creditor: { name: 'Padaria', account: '+5511999999999' },
      scheme: 'BR.PIX',
      country: 'BR',
      walletAmount: null,
      walletCurrency: null,
      quote: null,
    });
  });

  it('shows the wallet amount, its currency and the quote when FX applied', () => {
    const shown = toPublicTransaction(
      txn({
        amount: create(MoneySchema, { currency: 'COP', amountMinor: 5_000_000n }),
        payAmount: create(MoneySchema, { currency: 'USD', amountMinor: 1287n }),
        quote: create(AppliedQuoteSchema, { id: 'quo_01JD0000000000000000000001', rate: '3885.12' }),
      }),
    );
    expect(shown).toMatchObject({
      amount: 50000,
      currency: 'COP',
      walletAmount: 12.87,
      walletCurrency: 'USD',
      quote: { id: 'quo_01JD0000000000000000000001', rate: '3885.12' },
    });
  });
});

describe('fromMinorUnits', () => {
  it('writes the number with the currency digits, without float arithmetic', () => {
    expect(fromMinorUnits(1234n, 'BRL')).toBe(12.34);
    expect(fromMinorUnits(5n, 'BRL')).toBe(0.05);
    expect(fromMinorUnits(0n, 'BRL')).toBe(0);
    expect(fromMinorUnits(1500n, 'CLP')).toBe(1500);
    expect(fromMinorUnits(-250n, 'USD')).toBe(-2.5);
    // What a JSON parser reads from the decimal text, for every amount below 2^53.
    expect(fromMinorUnits(900719925474099n, 'BRL')).toBe(Number('9007199254740.99'));
  });
});

describe('minorUnitsText', () => {
  it('writes major units with every minor-unit digit, trailing zeros kept', () => {
    expect(minorUnitsText(100_000_000n, 'BRL')).toBe('1000000.00');
    expect(minorUnitsText(1n, 'BRL')).toBe('0.01');
    expect(minorUnitsText(100n, 'COP')).toBe('1.00');
    expect(minorUnitsText(1500n, 'CLP')).toBe('1500');
    expect(minorUnitsText(-250n, 'USD')).toBe('-2.50');
  });
});
