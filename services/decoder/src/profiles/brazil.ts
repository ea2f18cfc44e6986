// Brazil: Pix BR Code (docs/qr-schemes.md "Pix (BR)"). Static codes carry the key (26/01); dynamic
// codes carry a location (26/25) whose signed payload, fetched and verified by the
// DynamicPixFetcher, supplies key, amount and name.
import { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { classifyPixKey, type PixKeyKind } from '../checks/keys';
import { qrDecodeError } from '../emv/errors';
import { type EmvPayload, equalsIgnoreCase, type TlvList, tlvGet } from '../emv/tlv';
import type { DynamicPixPayload } from '../pix/dynamic/types';
import type { CountryProfile, SchemeMatch } from './types';

const PIX_ACCOUNT_TYPES: Readonly<Record<PixKeyKind, AccountType>> = {
  cpf: AccountType.PIX_CPF,
  cnpj: AccountType.PIX_CNPJ,
  phone: AccountType.PHONE,
  email: AccountType.EMAIL,
  evp: AccountType.PIX_EVP,
  unknown: AccountType.UNSPECIFIED,
};

function isPixGui(gui: string | undefined): boolean {
  if (gui === undefined || gui.length !== 14) return false;
  // br.gov.bcb.spi is the legacy GUI some libraries still emit.
  return equalsIgnoreCase(gui, 'br.gov.bcb.pix') || equalsIgnoreCase(gui, 'br.gov.bcb.spi');
}

interface PixTemplates {
  key: string | undefined;
  keyTemplate: TlvList | undefined;
  location: string | undefined;
  recurrenceLocation: string | undefined;
  seen: boolean;
}

// Pix may sit in any merchant account template (26–51); Pix Automático's location rides in 80–99.
function findPixTemplates(emv: EmvPayload): PixTemplates {
  const found: PixTemplates = {
    key: undefined,
    keyTemplate: undefined,
    location: undefined,
    recurrenceLocation: undefined,
    seen: false,
  };
  const { ids } = emv.objects;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    if (id < 26 || (id > 51 && id < 80)) continue;
    const template = emv.template(id);
    if (!template || !isPixGui(tlvGet(template, 0))) continue;
    found.seen = true;
    const key = tlvGet(template, 1);
    const location = tlvGet(template, 25);
    if (id <= 51) {
      if (key && found.key === undefined) {
        found.key = key;
        found.keyTemplate = template;
      }
      if (location && found.location === undefined) found.location = location;
    } else if (location && found.recurrenceLocation === undefined) {
      found.recurrenceLocation = location;
    }
  }
  return found;
}

function refuseNonPix(emv: EmvPayload): never {
  const mercadoPago = emv.objects.ids.some((id) => {
    const template = id >= 26 && id <= 51 ? emv.template(id) : undefined;
    const gui = template && tlvGet(template, 0);
    return gui !== undefined && equalsIgnoreCase(gui, 'com.mercadolibre');
  });
  if (mercadoPago)
    throw qrDecodeError(
      'This is a Mercado Pago wallet QR without a Pix template: it cannot be paid over Pix and is not supported.',
    );
  throw qrDecodeError(
    'Not a Pix QR: this Brazilian QR has no merchant account template with the GUI br.gov.bcb.pix.',
  );
}

function checkLocation(location: string): string {
  // BR Code: the location is written without a scheme; "https://" in it makes the code invalid.
  if (location.includes('://'))
    throw qrDecodeError('Invalid dynamic Pix location (25): it must not include a scheme such as https://.');
  return location;
}

export const decodeBrazil: CountryProfile = (emv, base): SchemeMatch => {
  const pix = findPixTemplates(emv);
  if (!pix.seen) refuseNonPix(emv);
  // The BR Code's reference label (62/05) is the Pix txid.
  const references: Record<string, string> = {};
  for (const name in base.additionalData)
    references[name === 'reference_label' ? 'txid' : name] = base.additionalData[name] as string;
  if (pix.recurrenceLocation) references.pix_recurrence_location = pix.recurrenceLocation;
  const common = { knownIdentifier: true, schemeTagsPresent: true, references };
  if (pix.key !== undefined) {
    const key = classifyPixKey(pix.key);
    const info = pix.keyTemplate && tlvGet(pix.keyTemplate, 2);
    if (info) references.pix_additional_info = info;
    const fss = pix.keyTemplate && tlvGet(pix.keyTemplate, 3);
    if (fss) references.pix_fss_ispb = fss;
    references.pix_key_type = key.kind;
    return {
      ...common,
      schemeId: 'BR.PIX',
      account: pix.key,
      accountType: PIX_ACCOUNT_TYPES[key.kind],
      identifiersValid: key.valid,
      accountInClear: true,
    };
  }
  const location = pix.location ?? pix.recurrenceLocation;
  if (location === undefined)
    throw qrDecodeError('The Pix template has neither a key (sub-tag 01) nor a location (sub-tag 25).');
  references.pix_location = checkLocation(location);
  return {
    ...common,
    schemeId: 'BR.PIX',
    account: location,
    accountType: AccountType.PIX_LOCATION,
    identifiersValid: false,
    accountInClear: false,
    dynamicPixLocation: location,
  };
};

/** What the verified payload changes in a dynamic Pix decode. */
export interface DynamicPixCompletion {
  readonly match: SchemeMatch;
  readonly creditorName: string | undefined;
  readonly amountMinor: bigint | undefined;
}

/**
 * Completes a dynamic Pix match with its verified payload: key, amount and name come from the
 * payload (the QR's 54/59 are only hints). A charge that is not ATIVA, or has expired, is refused.
 */
export function completeDynamicPix(
  match: SchemeMatch,
  payload: DynamicPixPayload,
  now: Date,
): DynamicPixCompletion {
  if (payload.status !== 'ATIVA')
    throw qrDecodeError(`The dynamic Pix charge is ${payload.status}, not ATIVA: it cannot be paid.`, {
      pix_status: payload.status,
    });
  if (payload.expiresAt && payload.expiresAt.getTime() <= now.getTime())
    throw qrDecodeError(`The dynamic Pix charge expired at ${payload.expiresAt.toISOString()}.`, {
      expires_at: payload.expiresAt.toISOString(),
    });
  const key = classifyPixKey(payload.key);
  const references: Record<string, string> = {
    ...match.references,
    txid: payload.txid,
    pix_key_type: key.kind,
  };
  if (payload.revision !== undefined) references.pix_revision = String(payload.revision);
  if (payload.expiresAt) references.pix_expires_at = payload.expiresAt.toISOString();
  const amount = payloadAmount(payload.amountMinor);
  return {
    match: {
      ...match,
      account: payload.key,
      accountType: PIX_ACCOUNT_TYPES[key.kind],
      identifiersValid: key.valid,
      // The key is in clear in a payload whose signature the fetcher verified.
      accountInClear: true,
      references,
      dynamicPixLocation: undefined,
    },
    creditorName: payload.creditorName,
    amountMinor: amount === 0n ? undefined : amount,
  };
}

function payloadAmount(value: bigint | number | undefined): bigint | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && !Number.isSafeInteger(value))
    throw qrDecodeError('The dynamic Pix payload has an amount that is not a whole number of centavos.');
  const amount = BigInt(value);
  if (amount < 0n) throw qrDecodeError('The dynamic Pix payload has a negative amount.');
  return amount;
}
