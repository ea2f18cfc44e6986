import { create } from '@bufbuild/protobuf';
import { type Currency, CurrencySchema } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { RateTable } from './rate-table';

export interface RateService {
  /** The currencies fx quotes, by code, with their ISO 4217 minor units. */
  listCurrencies(): Currency[];
}

export function createRateService(deps: { rates: RateTable }): RateService {
  return {
    listCurrencies: () =>
      [...deps.rates]
        .sort((a, b) => a.code.localeCompare(b.code))
        .map((entry) => create(CurrencySchema, { code: entry.code, minorUnits: entry.minorUnits })),
  };
}
