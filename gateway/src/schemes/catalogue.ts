import type { Client } from '@connectrpc/connect';
import type { DecoderService, Scheme } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
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
}

export interface SchemeCatalogue {
  /** The schemes as a JSON array text, ready to embed in a response. */
  getJson(): Promise<string>;
}

export type SchemeSource = Pick<Client<typeof DecoderService>, 'listSchemes'>;

export function toPublicScheme(s: Scheme): PublicScheme {
  return {
    id: s.id,
    name: s.name,
    country: s.country,
    currency: s.currency,
    rail: s.rail,
    required_payer_fields: s.requiredPayerFields.map((f) => ({ field: f.field, description: f.description })),
    qr_types: [...s.qrTypes],
    description: s.description,
  };
}

/**
 * The decoder's scheme list cached in the gateway (cache/refreshing-value.ts): it is static per
 * decoder release, serialized once per fetch so requests embed the text as is.
 */
export function createSchemeCatalogue(deps: {
  decoder: SchemeSource;
  logger: Logger;
  ttlMs: number;
  retryMs?: number;
  now?: () => number;
}): SchemeCatalogue {
  const { decoder, ...cacheOpts } = deps;
  const schemesJson = createRefreshingValue({
    ...cacheOpts,
    what: 'scheme catalogue',
    fetch: async () => JSON.stringify((await decoder.listSchemes({})).schemes.map(toPublicScheme)),
  });
  return { getJson: () => schemesJson.get() };
}
