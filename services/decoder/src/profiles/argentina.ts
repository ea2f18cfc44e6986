// Argentina (docs/qr-schemes.md "AR interoperable and CBU/CVU"): a check-digit-valid CBU/CVU in 51
// is a transfer to that account (AR.CBU_CVU); otherwise the QR names an acquirer and a merchant
// (CUIT in 50), paid as a Pago con Transferencia that the acquirer resolves (AR.INTEROPERABLE).

import { isValidCuit } from '@qr-payout/platform/checks';
import { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { digitsOnly, isValidCbuCvu } from '../checks/cbu-cvu';
import { qrDecodeError } from '../emv/errors';
import { type EmvPayload, tlvGet } from '../emv/tlv';
import { acquirerReferences, findAcquirerAccount, type KnownAcquirer, MERCADO_PAGO } from './acquirer';
import type { CountryProfile, SchemeMatch } from './types';

const PRISMA: KnownAcquirer = { name: 'prisma' };

// GUIs seen in real Argentine QRs (docs/qr-schemes.md "AR interoperable and CBU/CVU"), lower case.
export const AR_ACQUIRERS: ReadonlyMap<string, KnownAcquirer> = new Map([
  ['com.mercadolibre', MERCADO_PAGO],
  ['com.yacare', { name: 'yacare' }],
  ['com.todopago', PRISMA],
  ['com.spr', PRISMA],
  ['com.agr', PRISMA],
  ['com.adq', PRISMA],
  ['ar.com.pvs', PRISMA],
  ['ca', PRISMA],
  ['cabal', PRISMA],
  ['mastercard', PRISMA],
  ['visa', PRISMA],
  ['pris', PRISMA],
  ['coop.sipago', { name: 'modo' }],
]);

interface Cuit {
  readonly digits: string;
  readonly valid: boolean;
}

// 50/00 = 11 digits (or formatted), or 50/00 = "CUIT" and 50/01 = "20-12345678-1".
function readCuit(emv: EmvPayload): Cuit | undefined {
  const template = emv.template(50);
  if (!template) return undefined;
  const first = tlvGet(template, 0);
  const raw = first?.toUpperCase() === 'CUIT' ? tlvGet(template, 1) : first;
  if (raw === undefined) return undefined;
  const digits = digitsOnly(raw);
  return { digits, valid: isValidCuit(digits) };
}

function readCbu(emv: EmvPayload): string | undefined {
  const raw = emv.get(51);
  if (raw === undefined) return undefined;
  if (raw.length === 22 && digitsOnly(raw) === raw) return raw;
  const template = emv.template(51);
  if (!template) return undefined;
  for (const value of template.values) if (value.length === 22 && digitsOnly(value) === value) return value;
  return undefined;
}

const SKIP_FOR_ACQUIRER: ReadonlySet<number> = new Set([50, 51]);

export const decodeArgentina: CountryProfile = (emv, base): SchemeMatch => {
  const cuit = readCuit(emv);
  const references: Record<string, string> = { ...base.additionalData };
  const taxId = cuit && cuit.digits.length === 11 ? cuit.digits : undefined;
  const cuitValid = cuit === undefined || cuit.valid;
  const cbu = readCbu(emv);
  if (cbu !== undefined && isValidCbuCvu(cbu)) {
    references.cbu_cvu_kind = cbu.startsWith('000') ? 'cvu' : 'cbu';
    return {
      schemeId: 'AR.CBU_CVU',
      account: cbu,
      accountType: AccountType.CBU_CVU,
      taxId,
      references,
      identifiersValid: cuitValid,
      knownIdentifier: true,
      accountInClear: true,
      schemeTagsPresent: true,
    };
  }
  const found = findAcquirerAccount(emv, AR_ACQUIRERS, { skip: SKIP_FOR_ACQUIRER, fallbackId: taxId });
  if (!found) {
    if (cbu !== undefined)
      throw qrDecodeError('The CBU/CVU in tag 51 fails its check digits, and the QR names no acquirer.');
    throw qrDecodeError('Not a payment QR: no acquirer template (26–49) and no CBU/CVU (51).');
  }
  acquirerReferences(found, references);
  const mercadoPago = found.acquirer === 'mercadopago' ? emv.template(43) : undefined;
  const posId = mercadoPago && tlvGet(mercadoPago, 6);
  if (posId) references.pos_id = posId;
  return {
    schemeId: 'AR.INTEROPERABLE',
    account: found.account,
    accountType: found.accountType,
    taxId,
    references,
    identifiersValid: found.hasMerchantId && cuit?.valid === true,
    knownIdentifier: found.known,
    accountInClear: false,
    schemeTagsPresent: true,
  };
};
