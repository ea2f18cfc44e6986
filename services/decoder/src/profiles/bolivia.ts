// Bolivia (docs/qr-schemes.md "BO: EMVCo"): only EMVCo QRs are decodable (58=BO, 53=068), such as
// the ATC card-network QR; the bank-issued QR Simple format is not public and is refused upstream
// (it does not start with 000201).
import { qrDecodeError } from '../emv/errors';
import { acquirerReferences, findAcquirerAccount, type KnownAcquirer } from './acquirer';
import type { CountryProfile, SchemeMatch } from './types';

const BO_ACQUIRERS: ReadonlyMap<string, KnownAcquirer> = new Map([['bo.com.atc', { name: 'atc' }]]);

export const decodeBolivia: CountryProfile = (emv, base): SchemeMatch => {
  const found = findAcquirerAccount(emv, BO_ACQUIRERS);
  if (!found) throw qrDecodeError('Not a payment QR: no merchant account information Bolivia can route.');
  return {
    schemeId: 'BO.EMVCO',
    account: found.account,
    accountType: found.accountType,
    references: acquirerReferences(found, { ...base.additionalData }),
    identifiersValid: found.hasMerchantId,
    knownIdentifier: found.known,
    accountInClear: false,
    schemeTagsPresent: true,
  };
};
