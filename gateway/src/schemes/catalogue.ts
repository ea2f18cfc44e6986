import type { Client } from '@connectrpc/connect';
import { fromMinorUnits } from '@qr-payout/platform/money';
import type { Money } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { DecoderService, Scheme } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type {
  ListPayerIdentityRulesResponse,
  PayoutService,
  RailLimits,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { Logger } from 'pino';
import { createRefreshingValue } from '../cache/refreshing-value';

/** A scheme as the public API shows it (snake_case, docs/api/resources.md "Naming"). */
export interface PublicScheme {
  id: string;
  name: string;
  country: string;
  currency: string;
  rail: string;
  qr_types: string[];
  description: string;
  /** Smallest amount the rail accepts (payout's RAIL_LIMITS_*); null for a rail payout has no limits for. */
  min_amount: number | null;
  /** Largest amount the rail accepts, both ends included. */
  max_amount: number | null;
}

/**
 * What execute and pay accept as the payer's identity (docs/payer-identity.md), from payout: the
 * same for every scheme, so GET /v1/schemes shows it once. A payer whose payer_country is the
 * scheme's country is a resident; any other, or none, is not.
 */
export interface PublicPayerIdentity {
  /** Every payer field, required ones first. */
  fields: { field: string; required: boolean; description: string }[];
  /** The documents checked, by issuing country; other countries and types are accepted unchecked. */
  documents: { country: string; id_type: string; name: string; format: string }[];
  passport_format: string;
}

export interface SchemeCatalogue {
  /** The catalogue's members as JSON texts, ready to embed in a response. */
  getJson(): Promise<{ schemes: string; payerIdentity: string }>;
}

export type SchemeSource = Pick<Client<typeof DecoderService>, 'listSchemes'>;
export type RailLimitsSource = Pick<
  Client<typeof PayoutService>,
  'listRailLimits' | 'listPayerIdentityRules'
>;

function amountIn(money: Money | undefined, currency: string): number | null {
  return money && money.currency === currency ? fromMinorUnits(money.amountMinor, currency) : null;
}

/** A decoder scheme with the amount limits payout enforces on its rail (matched by rail and currency). */
export function toPublicScheme(s: Scheme, limits?: RailLimits): PublicScheme {
  return {
    id: s.id,
    name: s.name,
    country: s.country,
    currency: s.currency,
    rail: s.rail,
    qr_types: [...s.qrTypes],
    description: s.description,
    min_amount: amountIn(limits?.minAmount, s.currency),
    max_amount: amountIn(limits?.maxAmount, s.currency),
  };
}

/** Payout's payer rules as the public API shows them. */
export function toPublicPayerIdentity(payer: ListPayerIdentityRulesResponse): PublicPayerIdentity {
  return {
    fields: payer.fields.map((f) => ({ field: f.field, required: f.required, description: f.description })),
    documents: payer.documents.map((d) => ({
      country: d.country,
      id_type: d.idType,
      name: d.name,
      format: d.format,
    })),
    passport_format: payer.passportFormat,
  };
}

/**
 * The decoder's scheme list with payout's rail limits and payer rules, cached in the gateway
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
      const [{ schemes }, { limits }, payer] = await Promise.all([
        decoder.listSchemes({}),
        payout.listRailLimits({}),
        payout.listPayerIdentityRules({}),
      ]);
      const byRail = new Map(limits.map((l) => [l.rail, l]));
      return {
        schemes: JSON.stringify(schemes.map((s) => toPublicScheme(s, byRail.get(s.rail)))),
        payerIdentity: JSON.stringify(toPublicPayerIdentity(payer)),
      };
    },
  });
  return { getJson: () => schemesJson.get() };
}
