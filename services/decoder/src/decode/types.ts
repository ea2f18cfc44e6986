import type { AccountType, PointOfInitiation } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { CountryCode } from '../schemes/catalogue';

/** Scheme ids the decoder returns; each is listed in the catalogue (src/schemes/catalogue.ts). */
export const DECODER_SCHEME_IDS = [
  'BR.PIX',
  'AR.INTEROPERABLE',
  'AR.CBU_CVU',
  'CO.BREB',
  'CO.EMVCO',
  'PE.YAPE',
  'PE.INTEROPERABLE',
  'BO.EMVCO',
] as const;

export type SchemeId = (typeof DECODER_SCHEME_IDS)[number];

export interface ConfidenceFactor {
  readonly name: string;
  readonly passed: boolean;
  readonly weight: number;
}

export interface DecodedCreditor {
  readonly name: string;
  /** The account or key the rail routes on, or the identifier the rail resolves (accountType says). */
  readonly account: string;
  readonly accountType: AccountType;
  readonly city: string;
  /** Merchant tax id when the QR carries one (CUIT); empty otherwise. */
  readonly taxId: string;
  readonly merchantCategoryCode: string;
}

/** A decoded, normalized QR payment instruction (the domain form of DecodedQr). */
export interface DecodedInstruction {
  readonly schemeId: SchemeId;
  readonly country: CountryCode;
  /** ISO 4217 alphabetic. */
  readonly currency: string;
  /** Minor units (ISO 4217 digits of the currency); undefined when the payer enters it. */
  readonly amountMinor: bigint | undefined;
  readonly creditor: DecodedCreditor;
  readonly confidence: number;
  readonly confidenceFactors: readonly ConfidenceFactor[];
  readonly pointOfInitiation: PointOfInitiation;
  readonly rail: string;
  readonly references: Readonly<Record<string, string>>;
  /** The channel the QR states (Colombian 80 CANAL: APP, POS, ECOMM, ...); empty when it says none. */
  readonly channel: string;
}
