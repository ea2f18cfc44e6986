// The scheme catalogue: every scheme id the decoder can return (ListSchemes, GET /v1/schemes).
// The ids are a public contract (documented in the decoder README): add ids, never rename one.
// Sources for each entry: /work/shared/research/qr-schemes.md §2–§7.

export type CountryCode = 'AR' | 'BO' | 'BR' | 'CO' | 'PE';

export type RailName = 'pix' | 'transferencias-3.0' | 'bre-b' | 'cce-inmediatas' | 'bolivia-qr-interoperable';

export type QrType = 'static' | 'dynamic';

export type PayerField = 'payer_name' | 'payer_account' | 'payer_tax_id';

export type PayerFieldRequirement = { readonly field: PayerField; readonly description: string };

export type SchemeEntry = {
  /** `<country>.<NAME>`, stable. */
  readonly id: string;
  readonly name: string;
  readonly country: CountryCode;
  /** ISO 4217 alphabetic payout currency of the country (spec §1). */
  readonly currency: string;
  readonly rail: RailName;
  readonly qrTypes: readonly QrType[];
  /** Payer fields execute requires (spec §4.2), with the expected format in this country. */
  readonly requiredPayerFields: readonly PayerFieldRequirement[];
  readonly description: string;
};

const PAYER_NAME: PayerFieldRequirement = {
  field: 'payer_name',
  description: 'Full name of the payer as on their identity document (1 to 140 characters).',
};

const PAYER_ACCOUNT: PayerFieldRequirement = {
  field: 'payer_account',
  description:
    'Account of the payer at the sending wallet or bank: account number or wallet account id (1 to 64 characters).',
};

function payerFields(taxIdDescription: string): readonly PayerFieldRequirement[] {
  return [PAYER_NAME, PAYER_ACCOUNT, { field: 'payer_tax_id', description: taxIdDescription }];
}

// Tax id formats per country of the rail (research §7 names the authorities; formats are the
// national identity and taxpayer documents the partners ask for).
const PAYER_FIELDS: Readonly<Record<CountryCode, readonly PayerFieldRequirement[]>> = {
  BR: payerFields(
    'CPF (11 digits) or CNPJ (14 characters) of the payer, with valid mod-11 check digits; ' +
      'punctuation such as 123.456.789-09 is allowed.',
  ),
  AR: payerFields(
    'CUIT or CUIL (11 digits with a mod-11 check digit; 20-12345678-6 form allowed) or DNI (7 or 8 digits) of the payer.',
  ),
  CO: payerFields(
    'CC, cédula de ciudadanía (6 to 10 digits), or NIT (9 digits and a check digit; 900123456-8 form allowed) of the payer.',
  ),
  PE: payerFields('DNI (8 digits) or RUC (11 digits with a mod-11 check digit) of the payer.'),
  BO: payerFields(
    'CI, cédula de identidad (5 to 10 digits, optionally with a complement such as 1234567-1B), ' +
      'or NIT (up to 13 digits) of the payer.',
  ),
};

export const SCHEME_CATALOGUE: readonly SchemeEntry[] = [
  {
    id: 'BR.PIX',
    name: 'Pix',
    country: 'BR',
    currency: 'BRL',
    rail: 'pix',
    qrTypes: ['static', 'dynamic'],
    requiredPayerFields: PAYER_FIELDS.BR,
    description:
      'Pix BR Code of the Banco Central do Brasil: a merchant account template with GUI br.gov.bcb.pix, ' +
      'static (Pix key in clear) or dynamic (location of a signed payload), settled in SPI.',
  },
  {
    id: 'AR.INTEROPERABLE',
    name: 'QR interoperable (Transferencias 3.0)',
    country: 'AR',
    currency: 'ARS',
    rail: 'transferencias-3.0',
    qrTypes: ['static', 'dynamic'],
    requiredPayerFields: PAYER_FIELDS.AR,
    description:
      'Acquirer or wallet EMVCo QR of Argentina (Mercado Pago, Prisma, Yacaré, MODO and others) paid as a ' +
      'Pago con Transferencia through COELSA, Red Link or Prisma; the QR names the acquirer and merchant, not an account.',
  },
  {
    id: 'AR.CBU_CVU',
    name: 'Transfer QR to CBU/CVU',
    country: 'AR',
    currency: 'ARS',
    rail: 'transferencias-3.0',
    qrTypes: ['static', 'dynamic'],
    requiredPayerFields: PAYER_FIELDS.AR,
    description:
      'EMVCo QR of Argentina carrying the creditor CBU or CVU (22 digits, two check digits) in template 51, ' +
      'paid as an immediate transfer to that account.',
  },
  {
    id: 'CO.BREB',
    name: 'Bre-B',
    country: 'CO',
    currency: 'COP',
    rail: 'bre-b',
    qrTypes: ['static', 'dynamic'],
    requiredPayerFields: PAYER_FIELDS.CO,
    description:
      'EASPBV EMVCo QR of Colombia with a Bre-B key template (CO.COM.<network>.LLA: document, mobile, ' +
      'e-mail, @alias or merchant code), paid over Bre-B of the Banco de la República.',
  },
  {
    id: 'CO.EMVCO',
    name: 'QR EMVCo (EASPBV acquirer)',
    country: 'CO',
    currency: 'COP',
    rail: 'bre-b',
    qrTypes: ['static', 'dynamic'],
    requiredPayerFields: PAYER_FIELDS.CO,
    description:
      'EMVCo merchant QR of Colombia without a Bre-B key (EASPBV acquirer QRs of Redeban, Credibanco and ' +
      'others, wallet QRs): the merchant code is resolved by the network and paid over Bre-B.',
  },
  {
    id: 'PE.YAPE',
    name: 'Yape',
    country: 'PE',
    currency: 'PEN',
    rail: 'cce-inmediatas',
    qrTypes: ['static'],
    requiredPayerFields: PAYER_FIELDS.PE,
    description:
      'Yape (BCP) merchant QR: an opaque token in tag 39 that Yape resolves, paid through the interoperable ' +
      'CCE Transferencias Inmediatas (Circular 0024-2022-BCRP).',
  },
  {
    id: 'PE.INTEROPERABLE',
    name: 'QR interoperable (BCRP)',
    country: 'PE',
    currency: 'PEN',
    rail: 'cce-inmediatas',
    qrTypes: ['static', 'dynamic'],
    requiredPayerFields: PAYER_FIELDS.PE,
    description:
      'Any other EMVCo merchant QR of Peru (acquirer and PSP QRs such as Izipay, Mercado Pago, Plin) under ' +
      'the BCRP QR standard, paid through CCE Transferencias Inmediatas.',
  },
  {
    id: 'BO.EMVCO',
    name: 'QR interoperable (Bolivia)',
    country: 'BO',
    currency: 'BOB',
    rail: 'bolivia-qr-interoperable',
    qrTypes: ['static', 'dynamic'],
    requiredPayerFields: PAYER_FIELDS.BO,
    description:
      'EMVCo merchant QR of Bolivia (country BO, currency 068), such as the ATC card-network QR, paid through ' +
      'the interoperable QR transfers of the Banco Central de Bolivia (ACCL).',
  },
];
