import type { Client } from '@connectrpc/connect';
import type { DecoderService, Scheme } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { Logger } from 'pino';

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
 * The decoder's scheme list cached in the gateway (it is static per decoder release). Fresh for
 * `ttlMs`; after that the cached list is still served at once while one background call refreshes
 * it, so the hot path never waits on the decoder once the first call succeeded. A failed refresh
 * keeps the old list and is retried after `retryMs`.
 */
export function createSchemeCatalogue(deps: {
  decoder: SchemeSource;
  logger: Logger;
  ttlMs: number;
  retryMs?: number;
  now?: () => number;
}): SchemeCatalogue {
  const now = deps.now ?? Date.now;
  const retryMs = deps.retryMs ?? 1_000;
  let cached: string | undefined;
  let freshUntil = 0;
  let inFlight: Promise<string> | undefined;

  // Shared by concurrent callers, so it carries no caller's abort signal.
  function fetchSchemes(): Promise<string> {
    inFlight ??= deps.decoder
      .listSchemes({})
      .then((res) => {
        cached = JSON.stringify(res.schemes.map(toPublicScheme));
        freshUntil = now() + deps.ttlMs;
        return cached;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  return {
    async getJson() {
      if (cached === undefined) return fetchSchemes();
      if (now() >= freshUntil && !inFlight) {
        freshUntil = now() + retryMs;
        fetchSchemes().catch((err: unknown) =>
          deps.logger.warn(
            { err: { message: (err as Error)?.message } },
            'scheme catalogue refresh failed; serving the cached list',
          ),
        );
      }
      return cached;
    },
  };
}
