import type { Client } from '@connectrpc/connect';
import type { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { Logger } from 'pino';

export interface CurrencyCatalogue {
  /** Whether fx quotes from `code` (ISO 4217); rejects only when the list was never fetched. */
  isQuotable(code: string): Promise<boolean>;
}

export type CurrencySource = Pick<Client<typeof FxService>, 'listCurrencies'>;

/**
 * The currencies fx quotes, cached in the gateway: the list changes only with fx's rate table, and
 * resolve checks `wallet_currency` against it on every call. Fresh for `ttlMs`; after that the
 * cached set still answers at once while one background call refreshes it. A failed refresh keeps
 * the old set and is retried after `retryMs`.
 */
export function createCurrencyCatalogue(deps: {
  fx: CurrencySource;
  logger: Logger;
  ttlMs: number;
  retryMs?: number;
  now?: () => number;
}): CurrencyCatalogue {
  const now = deps.now ?? Date.now;
  const retryMs = deps.retryMs ?? 1_000;
  let cached: ReadonlySet<string> | undefined;
  let freshUntil = 0;
  let inFlight: Promise<ReadonlySet<string>> | undefined;

  // Shared by concurrent callers, so it carries no caller's abort signal.
  function fetchCurrencies(): Promise<ReadonlySet<string>> {
    inFlight ??= deps.fx
      .listCurrencies({})
      .then((res) => {
        cached = new Set(res.currencies.map((c) => c.code));
        freshUntil = now() + deps.ttlMs;
        return cached;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  async function current(): Promise<ReadonlySet<string>> {
    if (cached === undefined) return fetchCurrencies();
    if (now() >= freshUntil && !inFlight) {
      freshUntil = now() + retryMs;
      fetchCurrencies().catch((err: unknown) =>
        deps.logger.warn(
          { err: { message: (err as Error)?.message } },
          'fx currency list refresh failed; using the cached list',
        ),
      );
    }
    return cached;
  }

  return {
    isQuotable: async (code) => (await current()).has(code),
  };
}
