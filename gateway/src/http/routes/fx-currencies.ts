import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { CurrencyCatalogue } from '../../fx/currencies';

export interface FxCurrenciesRouteDeps {
  currencies: Pick<CurrencyCatalogue, 'list'>;
  authenticate: onRequestAsyncHookHandler;
}

/**
 * GET /v1/fx/currencies: the wallet currencies fx quotes (docs/api/fx-and-confidence.md "Wallet
 * currencies"), from the same cached list resolve checks `wallet_currency` against.
 */
export function registerFxCurrenciesRoute(app: FastifyInstance, deps: FxCurrenciesRouteDeps): void {
  app.get('/v1/fx/currencies', { onRequest: deps.authenticate }, async (request) => {
    const currencies = await deps.currencies.list();
    return {
      currencies: currencies.map((c) => ({ code: c.code, minor_units: c.minorUnits })),
      request_id: request.id,
    };
  });
}
