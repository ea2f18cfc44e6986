// The scheme catalogue: every scheme id the decoder can return (ListSchemes, GET /v1/schemes).
// The ids are a public contract (documented in the decoder README): add ids, never rename one.
// Sources for each entry, one heading per country: docs/qr-schemes.md "Pix (BR)", "AR interoperable
// and CBU/CVU", "CO: Bre-B and EMVCo", "PE: Yape and CCE", "BO: EMVCo".

// The rails are the partner protocol's one list (platform), which payout pays over.
import type { RailName } from '@qr-payout/platform/partner-protocol';

export type CountryCode = 'AR' | 'BO' | 'BR' | 'CO' | 'PE';

export type QrType = 'static' | 'dynamic';

export type SchemeEntry = {
  /** `<country>.<NAME>`, stable. */
  readonly id: string;
  readonly name: string;
  readonly country: CountryCode;
  /** ISO 4217 alphabetic payout currency of the country (docs/architecture.md "What the service does"). */
  readonly currency: string;
  readonly rail: RailName;
  readonly qrTypes: readonly QrType[];
  readonly description: string;
};

export const SCHEME_CATALOGUE: readonly SchemeEntry[] = [
  {
    id: 'BR.PIX',
    name: 'Pix',
    country: 'BR',
    currency: 'BRL',
    rail: 'pix',
    qrTypes: ['static', 'dynamic'],
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
    description:
      'EMVCo merchant QR of Bolivia (country BO, currency 068), such as the ATC card-network QR, paid through ' +
      'the interoperable QR transfers of the Banco Central de Bolivia (ACCL).',
  },
];
