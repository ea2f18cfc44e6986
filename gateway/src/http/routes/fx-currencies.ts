import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { CurrencyCatalogue } from '../../fx/currencies';
import { EXAMPLE_WALLET_CURRENCIES } from '../../openapi/examples';
import { FX_DESCRIPTION } from '../../openapi/reference';
import { example, okResponse, withRequestId } from '../../openapi/responses';
import { defineRoute, routeOptions } from '../../openapi/route';
import { WALLET_CURRENCIES_RESPONSE_SCHEMA } from '../schemas';
import { AUTHENTICATED_ERRORS } from './shared-responses';

export interface FxCurrenciesRouteDeps {
  currencies: Pick<CurrencyCatalogue, 'list'>;
  authenticate: onRequestAsyncHookHandler;
}

export const LIST_FX_CURRENCIES_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/fx/currencies',
  schema: {
    operationId: 'listFxCurrencies',
    tags: ['FX'],
    summary: 'List the wallet currencies',
    description:
      'The currencies fx quotes from: the values `wallet_currency` accepts at POST /v1/resolve and POST /v1/pay ' +
      "(any other is 400 `ValidationError`), each with its ISO 4217 minor-unit digits. The list is the gateway's " +
      "cached copy of fx's rate table (FX_CURRENCIES_CACHE_TTL_MS, 60 s by default); fx checks " +
      '`wallet_currency` against its own table when it quotes. ' +
      FX_DESCRIPTION,
    response: {
      '200': okResponse(
        'The wallet currencies, by code.',
        WALLET_CURRENCIES_RESPONSE_SCHEMA,
        true,
        example('sandbox', 'The sandbox rate table', withRequestId('currencies', EXAMPLE_WALLET_CURRENCIES)),
      ),
      ...AUTHENTICATED_ERRORS,
    },
  },
});

/**
 * GET /v1/fx/currencies: the wallet currencies fx quotes (docs/api/fx-and-confidence.md "Wallet
 * currencies"), cached from fx's list; fx itself refuses a `wallet_currency` it does not quote.
 */
export function registerFxCurrenciesRoute(app: FastifyInstance, deps: FxCurrenciesRouteDeps): void {
  app.route({
    ...routeOptions(LIST_FX_CURRENCIES_ROUTE),
    onRequest: deps.authenticate,
    handler: async (request) => {
      const currencies = await deps.currencies.list();
      return {
        currencies: currencies.map((c) => ({ code: c.code, minor_units: c.minorUnits })),
        request_id: request.id,
      };
    },
  });
}
