import { parseEmv, tlvGet } from '@qr-payout/decoder/emv/tlv';
import { buildDynamicBrCode, MAX_LOCATION_LENGTH, toBrCodeText } from './brcode';

describe('buildDynamicBrCode', () => {
  const location = 'psp.example.com/pix/v2/qr/0123456789abcdef0123456789abcdef';

  it('builds a dynamic BR Code naming the location in 26/25 that the decoder parses, CRC included', () => {
    const code = buildDynamicBrCode({
      location,
      amount: '12.34',
      merchantName: 'Padaria São João',
      merchantCity: 'São Paulo',
    });
    const payload = parseEmv(code);
    expect(payload.objects.ids).toEqual([0, 1, 26, 52, 53, 54, 58, 59, 60, 62, 63]);
    const pix = payload.template(26);
    expect(pix && tlvGet(pix, 0)).toBe('br.gov.bcb.pix');
    expect(pix && tlvGet(pix, 25)).toBe(location);
    expect(pix?.ids).toEqual([0, 25]);
    expect([1, 52, 53, 54, 58, 59, 60].map((id) => payload.get(id))).toEqual([
      '12',
      '0000',
      '986',
      '12.34',
      'BR',
      'Padaria Sao Joao',
      'Sao Paulo',
    ]);
    const additional = payload.template(62);
    expect(additional && tlvGet(additional, 5)).toBe('***');
  });

  it('leaves 54 out when there is no amount', () => {
    const code = buildDynamicBrCode({ location, merchantName: 'Loja', merchantCity: 'Recife' });
    expect(parseEmv(code).get(54)).toBeUndefined();
  });

  it('refuses a location with a scheme or longer than 77 characters, and names without ASCII', () => {
    const base = { merchantName: 'Loja', merchantCity: 'Recife' };
    expect(() => buildDynamicBrCode({ ...base, location: `https://${location}` })).toThrow(/scheme/);
    expect(() => buildDynamicBrCode({ ...base, location: 'a'.repeat(MAX_LOCATION_LENGTH + 1) })).toThrow(
      /longer than 77/,
    );
    expect(() => buildDynamicBrCode({ ...base, location, merchantName: '☕' })).toThrow(/ASCII/);
  });
});

describe('toBrCodeText', () => {
  it('strips accents, drops non-ASCII and cuts to the limit', () => {
    expect(toBrCodeText('Brasília', 15)).toBe('Brasilia');
    expect(toBrCodeText('Café ☕ Açúcar e Companhia Limitada', 25)).toBe('Cafe  Acucar e Companhia');
  });
});
