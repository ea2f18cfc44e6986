import type { Client } from '@connectrpc/connect';
import type { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { Logger } from 'pino';
import { createRefreshingValue } from '../cache/refreshing-value';

/** A currency fx quotes, as GET /v1/fx/currencies shows it. */
export interface WalletCurrency {
  /** ISO 4217 alphabetic code. */
  code: string;
  /** ISO 4217 minor-unit digits (0, 2 or 3): the decimals an amount in it may have. */
  minorUnits: number;
}

export interface CurrencyCatalogue {
  /** Whether fx quotes from `code` (ISO 4217); rejects only when the list was never fetched. */
  isQuotable(code: string): Promise<boolean>;
  /** Every currency fx quotes, by code; rejects only when the list was never fetched. */
  list(): Promise<readonly WalletCurrency[]>;
}

export type CurrencySource = Pick<Client<typeof FxService>, 'listCurrencies'>;

/**
 * The currencies fx quotes, cached in the gateway (cache/refreshing-value.ts): the list changes
 * only with fx's rate table, and resolve checks `wallet_currency` against it on every call. One
 * cache serves both that check and GET /v1/fx/currencies, so the two never disagree.
 */
export function createCurrencyCatalogue(deps: {
  fx: CurrencySource;
  logger: Logger;
  ttlMs: number;
  retryMs?: number;
  now?: () => number;
}): CurrencyCatalogue {
  const { fx, ...cacheOpts } = deps;
  const currencies = createRefreshingValue({
    ...cacheOpts,
    what: 'fx currency list',
    fetch: async () => {
      const list: readonly WalletCurrency[] = Object.freeze(
        (await fx.listCurrencies({})).currencies.map((c) =>
          Object.freeze({ code: c.code, minorUnits: c.minorUnits }),
        ),
      );
      return { list, codes: new Set(list.map((c) => c.code)) as ReadonlySet<string> };
    },
  });
  return {
    isQuotable: async (code) => (await currencies.get()).codes.has(code),
    list: async () => (await currencies.get()).list,
  };
}
