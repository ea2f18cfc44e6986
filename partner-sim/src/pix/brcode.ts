// The BR Code of a dynamic Pix charge (BCB Manual do BR Code; services/decoder/README.md "Dynamic Pix"): an
// EMVCo MPM payload whose merchant account template 26 names the charge's location (26/25)
// instead of a Pix key. The payer's PSP fetches the signed payload from that location; the
// amount (54) and name (59) printed here are only hints. TLV and CRC come from the decoder's
// EMVCo encoder, so the simulator and the decoder cannot disagree on the format.
import { type EmvObject, encodeMerchantQr } from '@qr-payout/decoder/emv/encode';

export const PIX_GUI = 'br.gov.bcb.pix';

/** 26/25 holds the URL without its scheme, at most 77 characters. */
export const MAX_LOCATION_LENGTH = 77;
export const MAX_NAME_LENGTH = 25;
export const MAX_CITY_LENGTH = 15;

export type DynamicBrCodeInput = {
  /** Host and path of the signed payload, without scheme (e.g. `psp.example/pix/v2/qr/abc`). */
  location: string;
  /** Decimal amount with two digits after the point ("12.34"); omitted when absent. */
  amount?: string;
  merchantName: string;
  merchantCity: string;
};

/**
 * BR Code limits 59 and 60 to ASCII (payers reject "Brasília"), so accents are stripped the way
 * Pix libraries do it, other characters dropped, and the result cut to `max`.
 */
export function toBrCodeText(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, max)
    .trimEnd();
}

/** The full BR Code text of a dynamic Pix charge, CRC included. */
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input.location)) {
    throw new RangeError('the location must not carry a scheme');
  }
  if (input.location.length > MAX_LOCATION_LENGTH) {
    throw new RangeError(`the location is longer than ${MAX_LOCATION_LENGTH} characters`);
  }
  const name = toBrCodeText(input.merchantName, MAX_NAME_LENGTH);
  const city = toBrCodeText(input.merchantCity, MAX_CITY_LENGTH);
  if (name === '' || city === '') throw new RangeError('merchant name and city need ASCII letters');
  const objects: EmvObject[] = [
    { id: 0, value: '01' },
    // "12": a dynamic code is meant for one payment.
    { id: 1, value: '12' },
    {
      id: 26,
      value: [
        { id: 0, value: PIX_GUI },
        { id: 25, value: input.location },
      ],
    },
    { id: 52, value: '0000' },
    { id: 53, value: '986' },
    ...(input.amount === undefined ? [] : [{ id: 54, value: input.amount }]),
    { id: 58, value: 'BR' },
    { id: 59, value: name },
    { id: 60, value: city },
    // Dynamic codes carry no txid in the QR: it is in the signed payload.
    { id: 62, value: [{ id: 5, value: '***' }] },
  ];
  return encodeMerchantQr(objects);
}
