import { create } from '@bufbuild/protobuf';
import { type Scheme, SchemeSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { SchemeEntry } from './catalogue';

export interface SchemeService {
  /** Every scheme the decoder can return, in catalogue order. */
  listSchemes(): Scheme[];
}

export function createSchemeService(deps: { catalogue: readonly SchemeEntry[] }): SchemeService {
  // Fresh messages per call: callers (the gRPC layer, tests) may mutate what they receive.
  return {
    listSchemes: () => deps.catalogue.map(toSchemeMessage),
  };
}

function toSchemeMessage(entry: SchemeEntry): Scheme {
  return create(SchemeSchema, {
    id: entry.id,
    name: entry.name,
    country: entry.country,
    currency: entry.currency,
    rail: entry.rail,
    qrTypes: [...entry.qrTypes],
    description: entry.description,
  });
}
