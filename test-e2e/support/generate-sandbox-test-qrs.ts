// The QR strings of the sandbox test-QR catalogue (gateway/src/docs/sandbox-test-qrs.ts), built
// with the decoder's own EMVCo encoder so every length and CRC is right by construction; the bad-CRC
// code is a valid one whose CRC is replaced by another value computed here, never typed by hand.
// The ones the e2e suite already pays come from @qr-payout/test-kit/qrs.
//
//   scripts/node24 node --conditions=development --import tsx test-e2e/support/generate-sandbox-test-qrs.ts
//
// prints `id: qr_string` for every static entry; sandbox-test-qrs.e2e.test.ts fails when the
// catalogue's strings differ from these.

import { MERCHANT_QRS, PIX_WITHOUT_AMOUNT, withBrokenCrc } from '@qr-payout/test-kit/qrs';
import { type EmvObject, encodeMerchantQr, encodeTlv } from '../../services/decoder/src/emv/encode';
import { parseEmv } from '../../services/decoder/src/emv/tlv';

function merchantQr(label: string): string {
  const found = MERCHANT_QRS.find((qr) => qr.label.startsWith(label));
  if (!found) throw new Error(`no merchant QR labelled ${label}`);
  return found.qrString;
}

/**
 * `qr` with top-level data objects set (a string, or a template as objects) or removed
 * (undefined), in id order, re-encoded with a fresh CRC.
 */
function withObjects(qr: string, changes: Record<number, string | EmvObject[] | undefined>): string {
  const { ids, values } = parseEmv(qr).objects;
  const objects = new Map<number, string>(ids.map((id, i) => [id, values[i] as string]));
  for (const [id, value] of Object.entries(changes)) {
    if (value === undefined) objects.delete(Number(id));
    else objects.set(Number(id), typeof value === 'string' ? value : encodeTlv(value));
  }
  objects.delete(63);
  const sorted = [...objects].sort(([a], [b]) => a - b);
  return encodeMerchantQr(sorted.map(([id, value]) => ({ id, value })));
}

/** Every static catalogue entry's QR string, by entry id. */
export function generateSandboxTestQrStrings(): Record<string, string> {
  const pix = merchantQr('Brazil');
  const yape = merchantQr('Peru');
  return {
    'br-static-amount': pix,
    'br-static-amountless': PIX_WITHOUT_AMOUNT,
    'ar-static-amount': merchantQr('Argentina'),
    'ar-static-amountless': withObjects(merchantQr('Argentina'), { 54: undefined }),
    'bo-static-amount': merchantQr('Bolivia'),
    'bo-static-amountless': withObjects(merchantQr('Bolivia'), { 54: undefined }),
    'co-static-amount': merchantQr('Colombia'),
    'co-static-amountless': withObjects(merchantQr('Colombia'), { 54: undefined }),
    'pe-static-amount': withObjects(yape, { 54: '35.00' }),
    'pe-static-amountless': yape,
    // The amount's last two digits pick the partner's answer (docs/partner-protocol.md "Sandbox outcomes").
    'br-outcome-51': withObjects(pix, { 54: '20.51' }),
    'br-outcome-52': withObjects(pix, { 54: '20.52' }),
    'br-outcome-53': withObjects(pix, { 54: '20.53' }),
    'br-outcome-54': withObjects(pix, { 54: '20.54' }),
    'br-bad-crc': withBrokenCrc(pix),
    // An acquirer the decoder does not know, and no merchant city (tag 60): the decoder still
    // decodes it, with low confidence (docs/api/fx-and-confidence.md "Confidence").
    'pe-low-confidence': withObjects(yape, {
      26: [
        { id: 0, value: 'PE.COM.UNKNOWN' },
        { id: 1, value: '123456' },
      ],
      39: undefined,
      52: '5812',
      54: '30.00',
      59: 'BODEGA SAN JUAN',
      60: undefined,
    }),
  };
}

if (require.main === module) {
  for (const [id, qrString] of Object.entries(generateSandboxTestQrStrings())) {
    process.stdout.write(`${id}: ${qrString}\n`);
  }
}
