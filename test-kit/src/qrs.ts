// @qr-payout/test-kit/qrs: the test QR codes, one owner. Merchant-presented QR codes of each
// supported country, built with the decoder's EMVCo encoder so lengths and CRC are right by
// construction. Account data follows the decoder's profiles (services/decoder/README.md
// "Decoding"): a Pix key, a CBU with valid check digits, a Bre-B mobile key, a Yape token, an ATC
// merchant id. What each one decodes to is in docs/sandbox-test-qrs.md.
import { type EmvObject, encodeMerchantQr } from '@qr-payout/decoder';

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

/** An EMVCo template (a tag whose value is a list of sub-tags), e.g. a merchant account's. */
function template(id: number, ...fields: [id: number, value: string][]): EmvObject {
  return { id, value: fields.map(([sub, value]) => ({ id: sub, value })) };
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
    template(62, [5, 'E2E0001']),
  ]);
}

export const MERCHANT_QRS: MerchantQr[] = [
  {
    label: 'Brazil, static Pix with a random key',
    qrString: staticQr({
      accountTemplates: [template(26, [0, 'br.gov.bcb.pix'], [1, '123e4567-e89b-42d3-a456-426614174000'])],
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
      accountTemplates: [template(50, [0, '30-62017749-7']), template(51, [0, '0000068000000002222956'])],
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
        template(26, [0, 'CO.COM.RBM.LLA'], [2, '3001234567']),
        template(49, [0, 'CO.COM.RBM.RED'], [1, 'RBM']),
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
      accountTemplates: [template(32, [0, 'bo.com.atc'], [1, '042851160303'])],
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

/** A static Pix QR (point of initiation 11) paying the Pix key `key`. */
export function staticPixQr(fields: {
  key: string;
  /** Major units with two decimals ("12.50"); without one the payer enters the amount. */
  amount?: string;
  name: string;
  city: string;
  mcc?: string;
  /** Tag 62-05, the reference the payee sees. */
  txid?: string;
}): string {
  return encodeMerchantQr([
    { id: 1, value: '11' },
    template(26, [0, 'br.gov.bcb.pix'], [1, fields.key]),
    { id: 52, value: fields.mcc ?? '0000' },
    { id: 53, value: '986' },
    ...(fields.amount !== undefined ? [{ id: 54, value: fields.amount }] : []),
    { id: 58, value: 'BR' },
    { id: 59, value: fields.name },
    { id: 60, value: fields.city },
    ...(fields.txid !== undefined ? [template(62, [5, fields.txid])] : []),
  ]);
}

/**
 * A dynamic Pix QR (point of initiation 12) whose payload is at the PSP location `location`
 * (host/path, no scheme). 127.0.0.1:9 is where nothing listens: with PIX_LOCATION_HTTP_HOSTS=127.0.0.1:9
 * the decoder fetches it over plain http and fails for real (QrLocationUnavailable).
 */
export function dynamicPixQr(fields: { location: string; name: string; city: string }): string {
  return encodeMerchantQr([
    { id: 1, value: '12' },
    template(26, [0, 'br.gov.bcb.pix'], [25, fields.location]),
    { id: 52, value: '0000' },
    { id: 53, value: '986' },
    { id: 58, value: 'BR' },
    { id: 59, value: fields.name },
    { id: 60, value: fields.city },
  ]);
}

/**
 * A static Pix QR without an amount: POST /v1/pay's `amount` then sets it, so the amount's last two
 * digits pick the sandbox outcome (docs/api/sandbox.md "Test amounts").
 */
export const PIX_WITHOUT_AMOUNT = staticPixQr({
  key: '123e4567-e89b-42d3-a456-426614174000',
  mcc: '5812',
  name: 'PADARIA PAO QUENTE',
  city: 'SAO PAULO',
  txid: 'E2EOUT1',
});
