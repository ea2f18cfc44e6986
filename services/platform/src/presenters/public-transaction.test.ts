import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { MoneySchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import {
  AppliedQuoteSchema,
  type Transaction,
  TransactionSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { fromMinorUnits, isIso4217Currency, minorUnitDigits, minorUnitsText } from './money';
import { toPublicTransaction } from './public-transaction';

const at = timestampFromDate(new Date('2026-01-02T03:04:05.678Z'));
const accepted = timestampFromDate(new Date('2026-01-02T03:04:05.700Z'));
const settled = timestampFromDate(new Date('2026-01-02T03:04:06.000Z'));

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
    statusHistory: [
      { status: TransactionStatus.PENDING, at },
      { status: TransactionStatus.PROCESSING, at: accepted },
      { status: TransactionStatus.COMPLETED, at: settled },
    ],
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
      statusHistory: [
        { status: 'pending', at: '2026-01-02T03:04:05.678Z' },
        { status: 'processing', at: '2026-01-02T03:04:05.700Z' },
        { status: 'completed', at: '2026-01-02T03:04:06.000Z' },
      ],
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

  it('shows a three-digit wallet currency (KWD, which fx quotes) with its three digits', () => {
    const shown = toPublicTransaction(
      txn({
        amount: create(MoneySchema, { currency: 'BRL', amountMinor: 5_000n }),
        payAmount: create(MoneySchema, { currency: 'KWD', amountMinor: 2_817n }),
        quote: create(AppliedQuoteSchema, { id: 'quo_01JD0000000000000000000001', rate: '17.75' }),
      }),
    );
    expect(shown).toMatchObject({ amount: 50, walletAmount: 2.817, walletCurrency: 'KWD' });
    expect(JSON.stringify(shown)).toContain('"walletAmount":2.817,"walletCurrency":"KWD"');
  });

  it('fails loudly on a currency without ISO 4217 digits rather than guessing two', () => {
    expect(() =>
      toPublicTransaction(txn({ amount: create(MoneySchema, { currency: 'XYZ', amountMinor: 1234n }) })),
    ).toThrow('minor-unit digits of "XYZ" unknown');
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
    expect(minorUnitsText(1_500n, 'KWD')).toBe('1.500');
    expect(minorUnitsText(7n, 'BHD')).toBe('0.007');
  });
});

describe('minorUnitDigits', () => {
  it('gives the ISO 4217 digits: 0, 2, 3 and 4', () => {
    expect(['JPY', 'CLP', 'BRL', 'COP', 'USD', 'KWD', 'BHD', 'TND', 'CLF'].map(minorUnitDigits)).toEqual([
      0, 0, 2, 2, 2, 3, 3, 3, 4,
    ]);
  });

  it.each(['XYZ', 'brl', '', 'XAU', 'toString', '__proto__'])('throws for %j, never a default', (code) => {
    expect(isIso4217Currency(code)).toBe(false);
    expect(() => minorUnitDigits(code)).toThrow('not an ISO 4217 currency');
  });
});
