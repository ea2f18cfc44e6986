import { encodeMerchantQr, encodeTlv } from './encode';
import { parseEmv, tlvGet } from './tlv';

describe('EMVCo encoder', () => {
  it('re-creates the BCB manual example byte for byte', () => {
    const text = encodeMerchantQr([
      {
        id: 26,
        value: [
          { id: 0, value: 'br.gov.bcb.pix' },
          { id: 1, value: '123e4567-e12b-12d1-a456-426655440000' },
        ],
      },
      { id: 52, value: '0000' },
      { id: 53, value: '986' },
      { id: 58, value: 'BR' },
      { id: 59, value: 'Fulano de Tal' },
      { id: 60, value: 'BRASILIA' },
      { id: 62, value: [{ id: 5, value: '***' }] },
    ]);
    expect(text).toBe(
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
    );
  });

  it('writes lengths in characters and the CRC over UTF-8, so the parser reads it back', () => {
    const text = encodeMerchantQr([
      { id: 60, value: 'Bogotá 👀' },
      { id: 64, value: [{ id: 1, value: '最佳运输' }] },
    ]);
    const emv = parseEmv(text);
    expect(emv.get(60)).toBe('Bogotá 👀');
    const language = emv.template(64);
    expect(language && tlvGet(language, 1)).toBe('最佳运输');
  });

  it('refuses ids and lengths EMVCo cannot express', () => {
    expect(() => encodeTlv([{ id: 100, value: 'x' }])).toThrow(RangeError);
    expect(() => encodeTlv([{ id: 59, value: 'x'.repeat(100) }])).toThrow(RangeError);
  });
});
