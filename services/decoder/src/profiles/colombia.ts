// Colombia (docs/qr-schemes.md "CO: Bre-B and EMVCo"): EASPBV QRs. A key template
// CO.COM.<network>.LLA in 26 makes it Bre-B (key type by sub-id); otherwise the merchant code (50)
// is what the network resolves. Tag order is not assumed: real Redeban QRs come shuffled.
import { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { BREB_KEY_SUB_IDS, type BrebKeyKind, isValidBrebKey } from '../checks/keys';
import { qrDecodeError } from '../emv/errors';
import { type EmvPayload, type TlvList, tlvGet } from '../emv/tlv';
import { acquirerReferences, findAcquirerAccount, type KnownAcquirer, MERCADO_PAGO } from './acquirer';
import type { CountryProfile, SchemeMatch } from './types';

// Redeban, Credibanco, ACH Colombia, Banco de la República, Mastercard, Servibanca, Visa, Visionamos.
const KNOWN_NETWORKS: ReadonlySet<string> = new Set([
  'RBM',
  'CRB',
  'ACH',
  'BRC',
  'MCCA',
  'SVB',
  'VCSS',
  'VISI',
]);

const CO_ACQUIRERS: ReadonlyMap<string, KnownAcquirer> = new Map([['com.mercadolibre', MERCADO_PAGO]]);

// The 80–99 fields of EASPBV, by the last part of their GUI (CO.COM.<network>.<FIELD>).
const FIELD_REFERENCES: Readonly<Record<string, string>> = {
  CANAL: 'channel',
  CIVA: 'vat_condition',
  IVA: 'vat_amount',
  BASE: 'vat_base',
  CINC: 'inc_condition',
  INC: 'inc_amount',
  TRXID: 'transaction_id',
  SEC: 'security_hash',
  DESC: 'discounts',
};

interface EaspbvGui {
  readonly network: string;
  readonly field: string;
}

// "CO.COM.RBM.LLA" → { network: "RBM", field: "LLA" }; case-insensitive.
function readEaspbvGui(template: TlvList | undefined): EaspbvGui | undefined {
  const gui = template && tlvGet(template, 0);
  if (gui === undefined || gui.length < 9) return undefined;
  const upper = gui.toUpperCase();
  if (!upper.startsWith('CO.COM.')) return undefined;
  const dot = upper.indexOf('.', 7);
  if (dot < 8 || dot === upper.length - 1) return undefined;
  return { network: upper.slice(7, dot), field: upper.slice(dot + 1) };
}

interface BrebKey {
  readonly kind: BrebKeyKind;
  readonly value: string;
  readonly network: string;
}

function findBrebKey(emv: EmvPayload): BrebKey | 'empty' | undefined {
  for (let id = 26; id <= 51; id++) {
    if (emv.get(id) === undefined) continue;
    const template = emv.template(id);
    const gui = readEaspbvGui(template);
    if (!template || gui?.field !== 'LLA') continue;
    for (const [subId, kind] of BREB_KEY_SUB_IDS) {
      const value = tlvGet(template, subId);
      if (value) return { kind, value, network: gui.network };
    }
    return 'empty';
  }
  return undefined;
}

function easpbvValue(
  emv: EmvPayload,
  id: number,
  field: string,
): { value: string; network: string } | undefined {
  const template = emv.template(id);
  const gui = readEaspbvGui(template);
  const value = template && tlvGet(template, 1);
  return gui?.field === field && value !== undefined ? { value, network: gui.network } : undefined;
}

function colombianFields(emv: EmvPayload, into: Record<string, string>): void {
  for (let id = 80; id <= 99; id++) {
    if (emv.get(id) === undefined) continue;
    const template = emv.template(id);
    const gui = readEaspbvGui(template);
    const value = template && tlvGet(template, 1);
    if (!gui || value === undefined) continue;
    into[FIELD_REFERENCES[gui.field] ?? gui.field.toLowerCase()] = value;
  }
}

// Network (49), merchant code (50) and aggregator (51) are not acquirer templates.
const EASPBV_TEMPLATES: ReadonlySet<number> = new Set([49, 50, 51]);

const BREB_ACCOUNT_TYPES: Readonly<Record<BrebKeyKind, AccountType>> = {
  document: AccountType.BREB_KEY,
  mobile: AccountType.PHONE,
  email: AccountType.EMAIL,
  alias: AccountType.BREB_KEY,
  merchant_code: AccountType.BREB_KEY,
};

export const decodeColombia: CountryProfile = (emv, base): SchemeMatch => {
  const references: Record<string, string> = { ...base.additionalData };
  colombianFields(emv, references);
  const network = easpbvValue(emv, 49, 'RED');
  const merchantCode = easpbvValue(emv, 50, 'CU');
  const aggregator = easpbvValue(emv, 51, 'CA');
  if (network) references.network = network.value;
  if (merchantCode) references.merchant_code = merchantCode.value;
  if (aggregator) references.aggregator_code = aggregator.value;
  const channel = references.channel;
  const key = findBrebKey(emv);
  if (key === 'empty')
    throw qrDecodeError('The Bre-B key template (CO.COM.<network>.LLA) holds no key (01–05).');
  if (key) {
    references.breb_key_type = key.kind;
    return {
      schemeId: 'CO.BREB',
      account: key.value,
      accountType: BREB_ACCOUNT_TYPES[key.kind],
      references,
      channel,
      identifiersValid: isValidBrebKey(key.kind, key.value),
      knownIdentifier: KNOWN_NETWORKS.has(network?.value.toUpperCase() ?? key.network),
      accountInClear: true,
      schemeTagsPresent: network !== undefined,
    };
  }
  const knownNetwork = network !== undefined && KNOWN_NETWORKS.has(network.value.toUpperCase());
  // The merchant code (50 CU) is what the EASPBV network resolves; without one, an acquirer's id.
  if (merchantCode)
    return {
      schemeId: 'CO.EMVCO',
      account: merchantCode.value,
      accountType: AccountType.MERCHANT_ID,
      references,
      channel,
      identifiersValid: /^\d{1,19}$/.test(merchantCode.value),
      knownIdentifier: knownNetwork,
      accountInClear: false,
      schemeTagsPresent: network !== undefined,
    };
  const found = findAcquirerAccount(emv, CO_ACQUIRERS, { skip: EASPBV_TEMPLATES });
  if (!found) throw qrDecodeError('Not a payment QR: no Bre-B key, merchant code or acquirer template.');
  acquirerReferences(found, references);
  return {
    schemeId: 'CO.EMVCO',
    account: found.account,
    accountType: found.accountType,
    references,
    channel,
    identifiersValid: found.hasMerchantId,
    knownIdentifier: found.known || knownNetwork,
    accountInClear: false,
    schemeTagsPresent: network !== undefined || found.known,
  };
};
