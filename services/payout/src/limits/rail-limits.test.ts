import { Code, readErrorDetail } from '@qr-payout/platform/errors';
import { minorUnitsText } from '@qr-payout/platform/money';
import fc from 'fast-check';
import {
  type AmountRange,
  checkWithinRailLimits,
  parseAmountRange,
  parseMajorAmount,
  type RailLimitTable,
  railLimits,
  railLimitsMessages,
} from './rail-limits';

function readLimits(env: Record<string, string> = {}): RailLimitTable {
  const read = railLimits().read(env);
  if (!read.ok) throw new Error(read.problem);
  return read.value;
}

function refusal(fn: () => void) {
  try {
    fn();
  } catch (err) {
    return readErrorDetail(err);
  }
  return undefined;
}

describe('rail limits', () => {
  it('has the sandbox defaults for every rail', () => {
    const limits = readLimits();
    const show = (r: AmountRange) =>
      `${minorUnitsText(r.minMinor, r.currency)}..${minorUnitsText(r.maxMinor, r.currency)} ${r.currency}`;
    expect(Object.fromEntries(Object.entries(limits).map(([rail, r]) => [rail, show(r)]))).toEqual({
      pix: '0.01..1000000.00 BRL',
      'transferencias-3.0': '1.00..50000000.00 ARS',
      'bre-b': '1.00..100000000.00 COP',
      'cce-inmediatas': '0.01..100000.00 PEN',
      'bolivia-qr-interoperable': '0.01..1000000.00 BOB',
    });
  });

  it('reads one variable per rail and names every bad one', () => {
    expect(readLimits({ RAIL_LIMITS_BRE_B: '5000..2000000' })['bre-b']).toEqual({
      currency: 'COP',
      minMinor: 500_000n,
      maxMinor: 200_000_000n,
    });
    const read = railLimits().read({ RAIL_LIMITS_PIX: '10..1', RAIL_LIMITS_TRANSFERENCIAS_3_0: '0.001..5' });
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.problem).toMatch(/RAIL_LIMITS_PIX must have a minimum no larger than its maximum/);
      expect(read.problem).toMatch(/RAIL_LIMITS_TRANSFERENCIAS_3_0 must be <min>\.\.<max> in ARS/);
    }
  });

  it('parses limits exactly, refusing zero, extra decimals and maxima beyond 15 digits of minor units', () => {
    expect(parseMajorAmount('1000000.00', 'BRL')).toBe(100_000_000n);
    expect(parseMajorAmount('0.1', 'PEN')).toBe(10n);
    expect(parseMajorAmount('1.5', 'CLP')).toBeUndefined();
    expect(parseMajorAmount('-1', 'BRL')).toBeUndefined();
    expect(parseAmountRange('0..1', 'BRL')).toBe('must have a positive minimum');
    expect(parseAmountRange('1..10000000000000', 'BRL')).toMatch(/at most 15 digits/);
    expect(parseAmountRange('1..9999999999999.99', 'BRL')).toMatchObject({ maxMinor: 999_999_999_999_999n });
  });

  it('accepts the ends and refuses outside them with AmountOutOfRange naming limit and currency', () => {
    const limits = readLimits();
    const brl = (amountMinor: bigint) => ({ currency: 'BRL', amountMinor }) as never;
    expect(refusal(() => checkWithinRailLimits(limits, 'pix', brl(1n)))).toBeUndefined();
    expect(refusal(() => checkWithinRailLimits(limits, 'pix', brl(100_000_000n)))).toBeUndefined();
    expect(refusal(() => checkWithinRailLimits(limits, 'pix', brl(10n ** 17n)))).toMatchObject({
      tag: 'AmountOutOfRange',
      code: Code.OutOfRange,
      field: 'amount',
      message: 'The amount is above the maximum of 1000000.00 BRL for this scheme.',
    });
    const ars = { currency: 'ARS', amountMinor: 99n } as never;
    expect(refusal(() => checkWithinRailLimits(limits, 'transferencias-3.0', ars))?.message).toBe(
      'The amount is below the minimum of 1.00 ARS for this scheme.',
    );
  });

  it('refuses exactly the amounts outside [min, max] (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        (min, span, amountMinor) => {
          const max = min + span;
          const limits = readLimits({
            RAIL_LIMITS_PIX: `${minorUnitsText(min, 'BRL')}..${minorUnitsText(max, 'BRL')}`,
          });
          const refused = refusal(() =>
            checkWithinRailLimits(limits, 'pix', { currency: 'BRL', amountMinor } as never),
          );
          expect(refused?.tag).toBe(amountMinor < min || amountMinor > max ? 'AmountOutOfRange' : undefined);
        },
      ),
    );
  });

  it('lists the limits as ListRailLimits answers them', () => {
    const pix = railLimitsMessages(readLimits()).find((l) => l.rail === 'pix');
    expect(pix?.minAmount).toMatchObject({ currency: 'BRL', amountMinor: 1n });
    expect(pix?.maxAmount).toMatchObject({ currency: 'BRL', amountMinor: 100_000_000n });
  });
});
