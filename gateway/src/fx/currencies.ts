import type { Client } from '@connectrpc/connect';
import type { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { Logger } from 'pino';
import { createRefreshingValue } from '../cache/refreshing-value';

export interface CurrencyCatalogue {
  /** Whether fx quotes from `code` (ISO 4217); rejects only when the list was never fetched. */
  isQuotable(code: string): Promise<boolean>;
}

export type CurrencySource = Pick<Client<typeof FxService>, 'listCurrencies'>;

/**
 * The currencies fx quotes, cached in the gateway (cache/refreshing-value.ts): the list changes
 * only with fx's rate table, and resolve checks `wallet_currency` against it on every call.
 */
export function createCurrencyCatalogue(deps: {
  fx: CurrencySource;
  logger: Logger;
  ttlMs: number;
  retryMs?: number;
  now?: () => number;
}): CurrencyCatalogue {
  const { fx, ...cacheOpts } = deps;
  const currencies = createRefreshingValue<ReadonlySet<string>>({
    ...cacheOpts,
    what: 'fx currency list',
    fetch: async () => new Set((await fx.listCurrencies({})).currencies.map((c) => c.code)),
  });
  return {
    isQuotable: async (code) => (await currencies.get()).has(code),
  };
}
