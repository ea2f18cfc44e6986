// A small EMVCo MPM encoder: builds payloads with correct lengths and CRC, for tests, the partner
// simulator and e2e. Lengths count characters (code points), the CRC covers the UTF-8 bytes.
import { crc16, crcHex } from './crc';

/** One data object: a primitive value, or a template of nested data objects. */
export interface EmvObject {
  /** 0–99; written as two digits. */
  readonly id: number;
  readonly value: string | readonly EmvObject[];
}

function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** Encodes data objects as TLV; throws RangeError for an id or a length EMVCo cannot express. */
export function encodeTlv(objects: readonly EmvObject[]): string {
  let out = '';
  for (const { id, value } of objects) {
    if (!Number.isInteger(id) || id < 0 || id > 99) throw new RangeError(`EMV id ${id} is not 0–99`);
    const text = typeof value === 'string' ? value : encodeTlv(value);
    const length = characterCount(text);
    if (length > 99) throw new RangeError(`EMV id ${id} value is ${length} characters; the maximum is 99`);
    out += `${String(id).padStart(2, '0')}${String(length).padStart(2, '0')}${text}`;
  }
  return out;
}

/**
 * A complete merchant-presented payload: 00 = "01" first (added unless given), the objects in the
 * order given, then 63 with the CRC.
 */
export function encodeMerchantQr(objects: readonly EmvObject[]): string {
  const body = objects.some((object) => object.id === 0) ? objects : [{ id: 0, value: '01' }, ...objects];
  const withoutCrc = `${encodeTlv(body.filter((object) => object.id !== 63))}6304`;
  return `${withoutCrc}${crcHex(crc16(withoutCrc))}`;
}
