import type { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { BaseFields } from '../decode/fields';
import type { SchemeId } from '../decode/types';
import type { EmvPayload } from '../emv/tlv';

/** What a country profile found: the scheme, the routed account and the scheme's own checks. */
export interface SchemeMatch {
  readonly schemeId: SchemeId;
  readonly account: string;
  readonly accountType: AccountType;
  readonly taxId?: string;
  readonly references: Record<string, string>;
  readonly channel?: string;
  readonly identifiersValid: boolean;
  readonly knownIdentifier: boolean;
  readonly accountInClear: boolean;
  /** The scheme's mandatory tags beyond the common ones (Colombia: 49) are present. */
  readonly schemeTagsPresent: boolean;
  /** Set for a dynamic Pix code: the payload at this location completes the decode. */
  readonly dynamicPixLocation?: string;
}

/** A country's scheme detection and extraction; throws QrDecodeError when nothing payable matches. */
export type CountryProfile = (emv: EmvPayload, base: BaseFields) => SchemeMatch;
