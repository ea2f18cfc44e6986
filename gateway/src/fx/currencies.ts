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
  /** Every currency fx quotes, by code; rejects only when the list was never fetched. */
  list(): Promise<readonly WalletCurrency[]>;
}

export type CurrencySource = Pick<Client<typeof FxService>, 'listCurrencies'>;

/**
 * The currencies fx quotes, cached in the gateway (cache/refreshing-value.ts) for GET
 * /v1/fx/currencies: the list changes only with fx's rate table. fx itself checks `wallet_currency`
 * when it quotes (docs/api/fx-and-confidence.md "Wallet currencies").
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
    fetch: async (): Promise<readonly WalletCurrency[]> =>
      Object.freeze(
        (await fx.listCurrencies({})).currencies.map((c) =>
          Object.freeze({ code: c.code, minorUnits: c.minorUnits }),
        ),
      ),
  });
  return { list: () => currencies.get() };
}
