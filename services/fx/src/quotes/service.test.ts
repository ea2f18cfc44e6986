import { Code, readErrorDetail } from '@qr-payout/platform/errors';
import { parseDecimal } from '../decimal/decimal';
import type { RateProvider } from '../rates/rate-provider';
import { createQuoteService } from './service';
import type { QuoteStore, StoredQuote } from './store';

// The paths that never reach PostgreSQL, or that the table provider cannot produce; the store
// and the confirm race are covered against real PostgreSQL in test/quotes.int.test.ts.

const untouchedStore: QuoteStore = {
  insertQuote: () => Promise.reject(new Error('the store must not be reached')),
  findQuote: () => Promise.reject(new Error('the store must not be reached')),
  confirmOpenQuote: () => Promise.reject(new Error('the store must not be reached')),
};

function serviceWith(rates: RateProvider, store: QuoteStore = untouchedStore) {
  return createQuoteService({
    store,
    rates,
    minorUnits: new Map([
      ['USD', 2],
      ['BRL', 2],
      ['PYG', 0],
    ]),
    pricing: { spreadBps: 50, feeBps: 0, ttlMs: 60_000 },
  });
}

const fixedRate = (mid: string): RateProvider => ({
  getMid: async () => ({ mid: parseDecimal(mid), asOf: new Date(0) }),
});

async function refusal(call: Promise<unknown>) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  return readErrorDetail(err);
}

describe('createQuoteService.createQuote', () => {
  it('answers ValidationError on wallet_currency when the provider has no rate for a known pair', async () => {
    const service = serviceWith({ getMid: async () => undefined });
    const detail = await refusal(
      service.createQuote({ tenantId: 'ten_a', sourceCurrency: 'USD', target: money('BRL', 100n) }),
    );
    expect(detail).toMatchObject({
      code: Code.InvalidArgument,
      tag: 'ValidationError',
      field: 'wallet_currency',
      metadata: { source_currency: 'USD', target_currency: 'BRL' },
    });
  });

  it('refuses an amount whose payer total would not fit int64', async () => {
    // 9.2e18 PYG bought with USD at 0.0001 PYG per USD: far beyond int64 cents
    const service = serviceWith(fixedRate('0.0001'));
    const detail = await refusal(
      service.createQuote({ tenantId: 'ten_a', sourceCurrency: 'USD', target: money('PYG', 2n ** 62n) }),
    );
    expect(detail).toMatchObject({ code: Code.InvalidArgument, tag: 'ValidationError', field: 'amount' });
  });

  it.each([
    ['no tenant', { tenantId: '', sourceCurrency: 'USD', target: money('BRL', 100n) }, 'tenant_id'],
    ['no target', { tenantId: 'ten_a', sourceCurrency: 'USD', target: undefined }, 'amount'],
    ['a negative target', { tenantId: 'ten_a', sourceCurrency: 'USD', target: money('BRL', -1n) }, 'amount'],
    [
      'the same currency',
      { tenantId: 'ten_a', sourceCurrency: 'BRL', target: money('BRL', 1n) },
      'wallet_currency',
    ],
    [
      'a malformed code',
      { tenantId: 'ten_a', sourceCurrency: 'US$', target: money('BRL', 1n) },
      'wallet_currency',
    ],
    [
      'an unknown target',
      { tenantId: 'ten_a', sourceCurrency: 'USD', target: money('EUR', 1n) },
      'wallet_currency',
    ],
  ])('refuses %s before pricing or storing', async (_what, input, field) => {
    const service = serviceWith({ getMid: () => Promise.reject(new Error('no rate lookup expected')) });
    expect(await refusal(service.createQuote(input))).toMatchObject({ tag: 'ValidationError', field });
  });
  it('refuses a wallet currency it does not quote, naming it and where the quoted ones are listed', async () => {
    const service = serviceWith({ getMid: () => Promise.reject(new Error('no rate lookup expected')) });
    const detail = await refusal(
      service.createQuote({ tenantId: 'ten_a', sourceCurrency: 'CHF', target: money('BRL', 100n) }),
    );
    expect(detail).toMatchObject({
      tag: 'ValidationError',
      field: 'wallet_currency',
      message:
        'wallet_currency CHF is not a currency we quote from; GET /v1/fx/currencies lists those we do.',
      metadata: { currency: 'CHF' },
    });
  });
});

describe('createQuoteService.confirmQuote', () => {
  it.each([
    ['no consumer', 'ten_a', 'quo_01JD0000000000000000000001', '', 'ValidationError'],
    [
      'a consumer id over 128 characters',
      'ten_a',
      'quo_01JD0000000000000000000001',
      'x'.repeat(129),
      'ValidationError',
    ],
    ['a malformed quote id', 'ten_a', 'q1', 'txn_1', 'NotFoundError'],
  ])('refuses %s without a query', async (_what, tenantId, quoteId, consumerId, tag) => {
    const service = serviceWith(fixedRate('1'));
    expect((await refusal(service.confirmQuote(tenantId, quoteId, consumerId)))?.tag).toBe(tag);
  });

  it('fails loudly when the quote is open and unexpired yet the UPDATE matched nothing', async () => {
    const open = { status: 'open', expired: false } as StoredQuote;
    const service = serviceWith(fixedRate('1'), {
      ...untouchedStore,
      confirmOpenQuote: async () => undefined,
      findQuote: async () => open,
    });
    await expect(service.confirmQuote('ten_a', 'quo_01JD0000000000000000000001', 'txn_1')).rejects.toThrow(
      /open and unexpired yet could not be confirmed/,
    );
  });
});

function money(currency: string, amountMinor: bigint) {
  return { $typeName: 'payout.common.v1.Money' as const, currency, amountMinor };
}
