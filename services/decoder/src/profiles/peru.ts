// Peru (docs/qr-schemes.md "PE: Yape and CCE"): Yape's opaque token in tag 39 (PE.YAPE), or any
// other EMVCo QR of Peru (PE.INTEROPERABLE: Izipay, PSPs, Mercado Pago). Neither has an account in
// clear.
import { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { isYapeToken } from '../checks/keys';
import { qrDecodeError } from '../emv/errors';
import { acquirerReferences, findAcquirerAccount, type KnownAcquirer, MERCADO_PAGO } from './acquirer';
import type { CountryProfile, SchemeMatch } from './types';

const PE_ACQUIRERS: ReadonlyMap<string, KnownAcquirer> = new Map([
  ['com.mercadolibre', MERCADO_PAGO],
  ['facilitador', { name: 'izipay' }],
]);

// Yape shows this placeholder instead of the merchant's name.
const YAPE_NAME = 'YAPERO';

export const decodePeru: CountryProfile = (emv, base): SchemeMatch => {
  const references: Record<string, string> = { ...base.additionalData };
  const token = emv.get(39);
  const yapeName = base.name.toUpperCase() === YAPE_NAME;
  if (token !== undefined && (yapeName || isYapeToken(token))) {
    const validToken = isYapeToken(token);
    references.wallet = 'yape';
    return {
      schemeId: 'PE.YAPE',
      account: token,
      accountType: AccountType.RAIL_TOKEN,
      references,
      identifiersValid: validToken,
      knownIdentifier: yapeName && validToken,
      accountInClear: false,
      schemeTagsPresent: true,
    };
  }
  const found = findAcquirerAccount(emv, PE_ACQUIRERS);
  if (!found) throw qrDecodeError('Not a payment QR: no merchant account information Peru can route.');
  acquirerReferences(found, references);
  return {
    schemeId: 'PE.INTEROPERABLE',
    account: found.account,
    accountType: found.accountType,
    references,
    identifiersValid: found.hasMerchantId,
    knownIdentifier: found.known,
    accountInClear: false,
    schemeTagsPresent: true,
  };
};
