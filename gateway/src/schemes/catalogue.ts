import type { Client } from '@connectrpc/connect';
import { fromMinorUnits } from '@qr-payout/platform/money';
import type { Money } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { DecoderService, Scheme } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { PayoutService, RailLimits } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { Logger } from 'pino';
import { createRefreshingValue } from '../cache/refreshing-value';

/** A scheme as the public API shows it (snake_case, docs/api-conventions.md). */
export interface PublicScheme {
  id: string;
  name: string;
  country: string;
  currency: string;
  rail: string;
  required_payer_fields: { field: string; description: string }[];
  qr_types: string[];
  description: string;
  /** Smallest amount the rail accepts (payout's RAIL_LIMITS_*); null for a rail payout has no limits for. */
  min_amount: number | null;
  /** Largest amount the rail accepts, both ends included. */
  max_amount: number | null;
}

export interface SchemeCatalogue {
  /** The schemes as a JSON array text, ready to embed in a response. */
  getJson(): Promise<string>;
}

export type SchemeSource = Pick<Client<typeof DecoderService>, 'listSchemes'>;
export type RailLimitsSource = Pick<Client<typeof PayoutService>, 'listRailLimits'>;

function amountIn(money: Money | undefined, currency: string): number | null {
  return money && money.currency === currency ? fromMinorUnits(money.amountMinor, currency) : null;
}

/** A decoder scheme with the limits payout enforces on its rail (matched by rail and currency). */
export function toPublicScheme(s: Scheme, limits?: RailLimits): PublicScheme {
  return {
    id: s.id,
    name: s.name,
    country: s.country,
    currency: s.currency,
    rail: s.rail,
    required_payer_fields: s.requiredPayerFields.map((f) => ({ field: f.field, description: f.description })),
    qr_types: [...s.qrTypes],
    description: s.description,
    min_amount: amountIn(limits?.minAmount, s.currency),
    max_amount: amountIn(limits?.maxAmount, s.currency),
  };
}

/**
 * The decoder's scheme list with payout's rail limits, cached in the gateway
 * (cache/refreshing-value.ts): both are static per release and configuration, serialized once per
 * fetch so requests embed the text as is.
 */
export function createSchemeCatalogue(deps: {
  decoder: SchemeSource;
  payout: RailLimitsSource;
  logger: Logger;
  ttlMs: number;
  retryMs?: number;
  now?: () => number;
}): SchemeCatalogue {
  const { decoder, payout, ...cacheOpts } = deps;
  const schemesJson = createRefreshingValue({
    ...cacheOpts,
    what: 'scheme catalogue',
    fetch: async () => {
      const [{ schemes }, { limits }] = await Promise.all([
        decoder.listSchemes({}),
        payout.listRailLimits({}),
      ]);
      const byRail = new Map(limits.map((l) => [l.rail, l]));
      return JSON.stringify(schemes.map((s) => toPublicScheme(s, byRail.get(s.rail))));
    },
  });
  return { getJson: () => schemesJson.get() };
}
