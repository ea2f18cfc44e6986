import { create } from '@bufbuild/protobuf';
import { silentLogger } from '@qr-payout/platform/log';
import { ListCurrenciesResponseSchema } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { type CurrencyCatalogue, type CurrencySource, createCurrencyCatalogue } from './currencies';

function source(codes: string[]) {
  const state = { calls: 0, fail: false, codes };
  const fx: CurrencySource = {
    listCurrencies: (async () => {
      state.calls++;
      if (state.fail) throw new Error('fx down');
      return create(ListCurrenciesResponseSchema, {
        currencies: state.codes.map((code) => ({ code, minorUnits: code === 'JPY' ? 0 : 2 })),
      });
    }) as unknown as CurrencySource['listCurrencies'],
  };
  return { fx, state };
}

/** Whether the catalogue's list holds `code`. */
async function lists(catalogue: CurrencyCatalogue, code: string): Promise<boolean> {
  return (await catalogue.list()).some((c) => c.code === code);
}

describe('fx currency catalogue', () => {
  it('answers from one fx call per TTL, shared by concurrent callers', async () => {
    const { fx, state } = source(['BRL', 'USD']);
    let clock = 0;
    const catalogue = createCurrencyCatalogue({ fx, logger: silentLogger(), ttlMs: 1000, now: () => clock });
    const answers = await Promise.all([
      lists(catalogue, 'USD'),
      lists(catalogue, 'XYZ'),
      lists(catalogue, 'BRL'),
    ]);
    expect(answers).toEqual([true, false, true]);
    clock = 999;
    await lists(catalogue, 'USD');
    expect(state.calls).toBe(1);
  });

  it('after the TTL answers from the cache while refreshing in the background', async () => {
    const { fx, state } = source(['USD']);
    let clock = 0;
    const catalogue = createCurrencyCatalogue({ fx, logger: silentLogger(), ttlMs: 1000, now: () => clock });
    expect(await lists(catalogue, 'EUR')).toBe(false);
    state.codes = ['USD', 'EUR'];
    clock = 1000;
    // Stale answer now, fresh one once the background refresh has landed.
    expect(await lists(catalogue, 'EUR')).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await lists(catalogue, 'EUR')).toBe(true);
    expect(state.calls).toBe(2);
  });

  it("lists the currencies with their minor units in one fx call, in fx's order", async () => {
    const { fx, state } = source(['BRL', 'JPY']);
    const catalogue = createCurrencyCatalogue({ fx, logger: silentLogger(), ttlMs: 1000, now: () => 0 });
    expect(await lists(catalogue, 'JPY')).toBe(true);
    expect(await catalogue.list()).toEqual([
      { code: 'BRL', minorUnits: 2 },
      { code: 'JPY', minorUnits: 0 },
    ]);
    expect(state.calls).toBe(1);
  });

  it('keeps the old list when a refresh fails, and rejects while it never had one', async () => {
    const { fx, state } = source(['USD']);
    let clock = 0;
    const catalogue = createCurrencyCatalogue({
      fx,
      logger: silentLogger(),
      ttlMs: 1000,
      retryMs: 100,
      now: () => clock,
    });
    state.fail = true;
    await expect(lists(catalogue, 'USD')).rejects.toThrow('fx down');
    state.fail = false;
    expect(await lists(catalogue, 'USD')).toBe(true);
    state.fail = true;
    clock = 5000;
    expect(await lists(catalogue, 'USD')).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await lists(catalogue, 'USD')).toBe(true);
    expect(state.calls).toBe(3);
  });
});
