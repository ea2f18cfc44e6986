import { formatDecimal } from '../decimal/decimal';
import { DEFAULT_RATE_TABLE } from './rate-table';
import { createTableRateProvider } from './table-provider';

describe('createTableRateProvider', () => {
  const loadedAt = new Date('2026-01-02T03:04:05.000Z');
  const provider = createTableRateProvider(DEFAULT_RATE_TABLE, loadedAt);

  it.each([
    // from the pivot: per_usd(target) exactly
    ['USD', 'BRL', '5.45'],
    ['USD', 'COP', '4050'],
    // to the pivot: 1 / per_usd(source), 12 significant digits
    ['BRL', 'USD', '0.183486238532'],
    ['COP', 'USD', '0.000246913580247'],
    // cross rates through the pivot: per_usd(target) / per_usd(source)
    ['EUR', 'BRL', '5.92391304348'],
    ['BOB', 'ARS', '169.540229885'],
    ['PEN', 'BOB', '1.856'],
  ])('%s → %s mid is %s', async (source, target, mid) => {
    const rate = await provider.getMid(source, target);
    expect(rate && { mid: formatDecimal(rate.mid), asOf: rate.asOf }).toEqual({ mid, asOf: loadedAt });
  });

  it.each([
    ['an unknown source', 'CLP', 'BRL'],
    ['an unknown target', 'USD', 'XAU'],
    ['the same currency', 'BRL', 'BRL'],
  ])('has no rate for %s', async (_what, source, target) => {
    await expect(provider.getMid(source, target)).resolves.toBeUndefined();
  });
});
