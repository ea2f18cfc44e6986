// The decode pipeline: EMVCo parse + CRC → common fields → the country's profile → confidence.
// Synchronous up to the one remote step (a dynamic Pix payload), so the hot path has no promise.
import { isDecoderError, qrDecodeError } from '../emv/errors';
import { trimSurroundingWhitespace } from '../emv/surrounding-whitespace';
import { parseEmv } from '../emv/tlv';
import type { DynamicPixFetcher, DynamicPixPayload } from '../pix/dynamic/types';
import { decodeArgentina } from '../profiles/argentina';
import { decodeBolivia } from '../profiles/bolivia';
import { completeDynamicPix, decodeBrazil } from '../profiles/brazil';
import { decodeColombia } from '../profiles/colombia';
import { decodePeru } from '../profiles/peru';
import type { CountryProfile, SchemeMatch } from '../profiles/types';
import { type CountryCode, SCHEME_CATALOGUE } from '../schemes/catalogue';
import { scoreConfidence } from './confidence';
import { type BaseFields, COUNTRIES, readBaseFields } from './fields';
import type { DecodedInstruction, SchemeId } from './types';

const PROFILES: Readonly<Record<CountryCode, CountryProfile>> = {
  AR: decodeArgentina,
  BO: decodeBolivia,
  BR: decodeBrazil,
  CO: decodeColombia,
  PE: decodePeru,
};

function railOf(schemeId: SchemeId): string {
  const entry = SCHEME_CATALOGUE.find((scheme) => scheme.id === schemeId);
  // DECODER_SCHEME_IDS are all in the catalogue (a unit test holds this), so this is a bug if hit.
  if (!entry) throw new Error(`scheme ${schemeId} is missing from the catalogue`);
  return entry.rail;
}

function assemble(
  base: BaseFields,
  match: SchemeMatch,
  overrides: { name?: string; amountMinor?: bigint | undefined; fromPayload?: boolean } = {},
): DecodedInstruction {
  const { confidence, factors } = scoreConfidence({
    mandatoryTags: base.commonTagsPresent && match.schemeTagsPresent,
    identifiersValid: match.identifiersValid,
    knownIdentifier: match.knownIdentifier,
    countryCurrencyConsistent: base.countryCurrencyConsistent,
    accountInClear: match.accountInClear,
  });
  return {
    schemeId: match.schemeId,
    country: base.country,
    currency: COUNTRIES[base.country].currency,
    amountMinor: overrides.fromPayload ? overrides.amountMinor : base.amountMinor,
    creditor: {
      name: overrides.name ?? base.name,
      account: match.account,
      accountType: match.accountType,
      city: base.city,
      taxId: match.taxId ?? '',
      merchantCategoryCode: base.merchantCategoryCode,
    },
    confidence,
    confidenceFactors: factors,
    pointOfInitiation: base.pointOfInitiation,
    rail: railOf(match.schemeId),
    references: match.references,
    channel: match.channel ?? '',
  };
}

/** The outcome of the synchronous part: an instruction, or a dynamic Pix code to complete. */
export type DecodeStep =
  | { readonly kind: 'decoded'; readonly instruction: DecodedInstruction }
  | {
      readonly kind: 'dynamic-pix';
      readonly location: string;
      /** Completes the decode with the verified payload at `location`. */
      complete(payload: DynamicPixPayload, now: Date): DecodedInstruction;
    };

/**
 * Parses, checks and classifies a QR text; throws QrDecodeError for anything not decodable. The
 * whitespace a scan or a paste adds around the text is not part of the QR and is ignored.
 */
export function decodeQrText(text: string): DecodeStep {
  if (typeof text !== 'string') throw qrDecodeError('The QR text must be a string.');
  const emv = parseEmv(trimSurroundingWhitespace(text));
  const base = readBaseFields(emv);
  const match = PROFILES[base.country](emv, base);
  const location = match.dynamicPixLocation;
  if (location === undefined) return { kind: 'decoded', instruction: assemble(base, match) };
  return {
    kind: 'dynamic-pix',
    location,
    complete(payload, now) {
      const completed = completeDynamicPix(match, payload, now);
      return assemble(base, completed.match, {
        name: completed.creditorName,
        amountMinor: completed.amountMinor,
        fromPayload: true,
      });
    },
  };
}

export interface QrDecoder {
  /**
   * Decodes one QR text; rejects with QrDecodeError when it cannot, or QrLocationUnavailable when
   * the merchant's PSP did not answer for a dynamic code (and with nothing else).
   */
  decode(text: string): Promise<DecodedInstruction>;
}

export function createQrDecoder(deps: { dynamicPix: DynamicPixFetcher; now?: () => Date }): QrDecoder {
  const now = deps.now ?? (() => new Date());
  return {
    async decode(text) {
      const step = decodeQrText(text);
      if (step.kind === 'decoded') return step.instruction;
      let payload: DynamicPixPayload;
      try {
        payload = await deps.dynamicPix.fetch(step.location);
      } catch (err) {
        throw asDecoderError(err);
      }
      return step.complete(payload, now());
    },
  };
}

// The fetcher raises QrDecodeError or QrLocationUnavailable itself; anything else it throws still
// means "the location could not be fetched", which is what the caller must hear (never a guess,
// never an internal error).
function asDecoderError(err: unknown): unknown {
  if (isDecoderError(err)) return err;
  return qrDecodeError('The dynamic Pix location could not be fetched, so the code cannot be decoded.');
}
