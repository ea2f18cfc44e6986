// Merchant-presented QR codes of each supported country, built with the decoder's EMVCo encoder so
// lengths and CRC are right by construction. Account data follows the decoder's profiles
// (services/decoder/README.md "Decoding"): a Pix key, a CBU with valid check digits, a Bre-B
// mobile key, a Yape token, an ATC merchant id.
import { type EmvObject, encodeMerchantQr } from '../../services/decoder/src/emv/encode';

export interface MerchantQr {
  /** What the test calls it. */
  label: string;
  qrString: string;
  country: string;
  currency: string;
  /** Scheme ids the decoder may answer for it (GET /v1/schemes). */
  schemes: string[];
  creditorName: string;
  /** Major units the QR carries; undefined when the payer enters the amount. */
  amount: number | undefined;
}

interface Fields {
  accountTemplates: EmvObject[];
  country: string;
  currencyNumeric: string;
  amount?: string;
  name: string;
  city: string;
  mcc?: string;
}

function staticQr(fields: Fields): string {
  return encodeMerchantQr([
    { id: 1, value: '11' },
    ...fields.accountTemplates,
    { id: 52, value: fields.mcc ?? '5812' },
    { id: 53, value: fields.currencyNumeric },
    ...(fields.amount !== undefined ? [{ id: 54, value: fields.amount }] : []),
    { id: 58, value: fields.country },
    { id: 59, value: fields.name },
    { id: 60, value: fields.city },
    { id: 62, value: [{ id: 5, value: 'E2E0001' }] },
  ]);
}

export const MERCHANT_QRS: MerchantQr[] = [
  {
    label: 'Brazil, static Pix with a random key',
    qrString: staticQr({
      accountTemplates: [
        {
          id: 26,
          value: [
            { id: 0, value: 'br.gov.bcb.pix' },
            { id: 1, value: '123e4567-e89b-42d3-a456-426614174000' },
          ],
        },
      ],
      country: 'BR',
      currencyNumeric: '986',
      amount: '12.34',
      name: 'PADARIA PAO QUENTE',
      city: 'SAO PAULO',
    }),
    country: 'BR',
    currency: 'BRL',
    schemes: ['BR.PIX'],
    creditorName: 'PADARIA PAO QUENTE',
    amount: 12.34,
  },
  {
    label: 'Argentina, transfer to a CBU',
    qrString: staticQr({
      accountTemplates: [
        { id: 50, value: [{ id: 0, value: '30-62017749-7' }] },
        { id: 51, value: [{ id: 0, value: '0000068000000002222956' }] },
      ],
      country: 'AR',
      currencyNumeric: '032',
      amount: '1500.00',
      name: 'PARRILLA DON JUAN',
      city: 'BUENOS AIRES',
    }),
    country: 'AR',
    currency: 'ARS',
    schemes: ['AR.CBU_CVU', 'AR.INTEROPERABLE'],
    creditorName: 'PARRILLA DON JUAN',
    amount: 1500,
  },
  {
    label: 'Colombia, Bre-B mobile key',
    qrString: staticQr({
      accountTemplates: [
        {
          id: 26,
          value: [
            { id: 0, value: 'CO.COM.RBM.LLA' },
            { id: 2, value: '3001234567' },
          ],
        },
        {
          id: 49,
          value: [
            { id: 0, value: 'CO.COM.RBM.RED' },
            { id: 1, value: 'RBM' },
          ],
        },
      ],
      country: 'CO',
      currencyNumeric: '170',
      amount: '50000.00',
      name: 'TIENDA LA ESQUINA',
      city: 'BOGOTA',
    }),
    country: 'CO',
    currency: 'COP',
    schemes: ['CO.BREB', 'CO.EMVCO'],
    creditorName: 'TIENDA LA ESQUINA',
    amount: 50000,
  },
  {
    label: 'Peru, Yape without an amount',
    qrString: staticQr({
      accountTemplates: [{ id: 39, value: '03f92874015c5c6e81301afca0f637ae' }],
      country: 'PE',
      currencyNumeric: '604',
      name: 'YAPERO',
      city: 'Lima',
      mcc: '5611',
    }),
    country: 'PE',
    currency: 'PEN',
    schemes: ['PE.YAPE', 'PE.INTEROPERABLE'],
    creditorName: 'YAPERO',
    amount: undefined,
  },
  {
    label: 'Bolivia, interoperable QR of an ATC merchant',
    qrString: staticQr({
      accountTemplates: [
        {
          id: 32,
          value: [
            { id: 0, value: 'bo.com.atc' },
            { id: 1, value: '042851160303' },
          ],
        },
      ],
      country: 'BO',
      currencyNumeric: '068',
      amount: '100.00',
      name: 'HUGO CUSSI',
      city: 'LA PAZ',
    }),
    country: 'BO',
    currency: 'BOB',
    schemes: ['BO.EMVCO'],
    creditorName: 'HUGO CUSSI',
    amount: 100,
  },
];

/** The same payload with its CRC (the last four characters) changed: a QrDecodeError. */
export function withBrokenCrc(qrString: string): string {
  const crc = qrString.slice(-4);
  return qrString.slice(0, -4) + (crc === '0000' ? '0001' : '0000');
}
