// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR), the checksum of tag 63
// (docs/qr-schemes.md "CRC16"). Table-driven, two bytes per step on ASCII runs.

const TABLE = buildTable();
// Two-byte step: CRC is linear over XOR, so after bytes b0, b1 with idx = crc ^ (b0 << 8 | b1),
// crc = PAIR_HIGH[idx >> 8] ^ TABLE[idx & 0xff], where PAIR_HIGH advances the high byte twice.
const PAIR_HIGH = buildPairTable(TABLE);

function buildTable(): Uint16Array {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
}

function buildPairTable(table: Uint16Array): Uint16Array {
  const pair = new Uint16Array(256);
  for (let x = 0; x < 256; x++) {
    const once = table[x] as number;
    pair[x] = ((once & 0xff) << 8) ^ (table[once >> 8] as number);
  }
  return pair;
}

function update(crc: number, byte: number): number {
  return ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] as number);
}

/**
 * CRC of the UTF-8 bytes of `text.slice(0, end)`. ASCII characters are their own byte; anything
 * else is encoded on the fly (code points, surrogate pairs included), so no Buffer is allocated.
 */
export function crc16(text: string, end: number = text.length): number {
  return crc16Scan(text, end) & 0xffff;
}

/** Bit 16 of crc16Scan's result: the text has surrogates (characters outside the BMP). */
export const HAS_SURROGATES = 0x10000;

/** crc16, plus HAS_SURROGATES when the text holds any, so the parser needs no second pass. */
export function crc16Scan(text: string, end: number): number {
  let crc = 0xffff;
  let surrogates = 0;
  for (let i = 0; i < end; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      const next = i + 1 < end ? text.charCodeAt(i + 1) : 0x80;
      if (next < 0x80) {
        const idx = crc ^ ((code << 8) | next);
        crc = (PAIR_HIGH[idx >> 8] as number) ^ (TABLE[idx & 0xff] as number);
        i++;
      } else {
        crc = ((crc << 8) & 0xffff) ^ (TABLE[(crc >> 8) ^ code] as number);
      }
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) surrogates = HAS_SURROGATES;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < end) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    // A lone surrogate is encoded as U+FFFD, as TextEncoder does.
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x800) {
      crc = update(crc, 0xc0 | (code >> 6));
      crc = update(crc, 0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      crc = update(crc, 0xe0 | (code >> 12));
      crc = update(crc, 0x80 | ((code >> 6) & 0x3f));
      crc = update(crc, 0x80 | (code & 0x3f));
    } else {
      crc = update(crc, 0xf0 | (code >> 18));
      crc = update(crc, 0x80 | ((code >> 12) & 0x3f));
      crc = update(crc, 0x80 | ((code >> 6) & 0x3f));
      crc = update(crc, 0x80 | (code & 0x3f));
    }
  }
  return crc | surrogates;
}

/** The CRC as tag 63 writes it: 4 upper-case hex digits. */
export function crcHex(crc: number): string {
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
