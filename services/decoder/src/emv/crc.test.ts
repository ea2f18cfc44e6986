import { crc16, crcHex } from './crc';

// Reference implementation: bit by bit over Buffer.from(text, 'utf8').
function referenceCrc(text: string): number {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

describe('crc16 (CRC-16/CCITT-FALSE)', () => {
  it('gives the standard check value 29B1 for "123456789"', () => {
    expect(crcHex(crc16('123456789'))).toBe('29B1');
  });

  it('matches the BCB manual example (CRC 1D3D)', () => {
    const payload =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304';
    expect(crcHex(crc16(payload))).toBe('1D3D');
  });

  it.each([
    ['two-byte UTF-8', '6006Bogotá'],
    ['three-byte UTF-8', '0104最佳运输'],
    ['four-byte UTF-8 (surrogate pair)', 'id 👀 end'],
    ['a lone surrogate, encoded as U+FFFD', 'a\ud800b'],
  ])('computes over the UTF-8 bytes: %s', (_name, text) => {
    expect(crc16(text)).toBe(referenceCrc(text));
  });

  it('covers only the first `end` characters when given', () => {
    expect(crc16('123456789XYZ', 9)).toBe(crc16('123456789'));
  });

  it('writes 4 upper-case hex digits, zero-padded', () => {
    expect(crcHex(0x0a)).toBe('000A');
    expect(crcHex(0xbeef)).toBe('BEEF');
  });
});
