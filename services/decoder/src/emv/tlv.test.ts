import { readErrorDetail } from '@qr-payout/platform/errors';
import { staticPixQr } from '@qr-payout/test-kit/qrs';
import { crc16, crcHex } from './crc';
import { encodeMerchantQr } from './encode';
import { parseEmv, parseTemplate, tlvGet } from './tlv';

function decodeError(text: string) {
  try {
    parseEmv(text);
  } catch (err) {
    return readErrorDetail(err);
  }
  throw new Error('expected a QrDecodeError');
}

// Appends "6304" and the right CRC to a body written by hand.
function withCrc(body: string): string {
  const text = `${body}6304`;
  return `${text}${crcHex(crc16(text))}`;
}

const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

describe('parseEmv', () => {
  it('reads the top-level objects and their templates', () => {
    const emv = parseEmv(BCB_EXAMPLE);
    expect(emv.objects.ids).toEqual([0, 26, 52, 53, 58, 59, 60, 62, 63]);
    expect(emv.get(59)).toBe('Fulano de Tal');
    expect(emv.get(54)).toBeUndefined();
    const pix = emv.template(26);
    expect(pix && tlvGet(pix, 0)).toBe('br.gov.bcb.pix');
    expect(pix && tlvGet(pix, 1)).toBe('123e4567-e12b-12d1-a456-426655440000');
  });

  it('does not depend on tag order (only 00 first and 63 last)', () => {
    const text = withCrc('0002015802CO5303170' + '5904Shop' + '6006Bogotá' + '52040000');
    const emv = parseEmv(text);
    expect(emv.get(58)).toBe('CO');
    expect(emv.get(52)).toBe('0000');
  });

  it('counts lengths in characters, outside the BMP too', () => {
    const emv = parseEmv(withCrc('0002016006Bogotá62070503a👀b'));
    expect(emv.get(60)).toBe('Bogotá');
    const additional = emv.template(62);
    expect(additional && tlvGet(additional, 5)).toBe('a👀b');
  });

  it('accepts a lower-case CRC', () => {
    const lower = `${BCB_EXAMPLE.slice(0, -4)}1d3d`;
    expect(parseEmv(lower).get(63)).toBe('1d3d');
  });

  it('refuses a wrong CRC, naming expected and actual', () => {
    const detail = decodeError(`${BCB_EXAMPLE.slice(0, -4)}0000`);
    expect(detail).toMatchObject({
      tag: 'QrDecodeError',
      metadata: { expected_crc: '1D3D', actual_crc: '0000' },
    });
    expect(detail?.message).toContain('expected 1D3D');
  });

  // The CRC is checked first, so each body gets a valid trailer to reach the TLV reading.
  it.each([
    ['an id that is not digits', '000201AB02xx', 6, 'id is not two digits'],
    ['a length that is not digits', '00020159x2ab', 8, 'length of id 59 is not two digits'],
    ['a value that runs past the end', '0002015999short', 6, 'value of id 59 (length 99) runs past the end'],
    ['a truncated header', '000201590', 16, 'truncated data object header'],
  ])('refuses %s with its position', (_name, body, position, problem) => {
    const detail = decodeError(withCrc(body));
    expect(detail?.message).toBe(`Malformed TLV at position ${position}: ${problem}.`);
    expect(detail?.metadata.position).toBe(String(position));
  });

  it('refuses a repeated id', () => {
    expect(decodeError(withCrc('0002015802BR5802BR'))?.message).toContain('id 58 appears twice');
  });

  it('refuses a payload without a trailing CRC object', () => {
    expect(decodeError('0002015802BR')?.message).toContain('no CRC');
    expect(decodeError('00020163041D3D5802BR')?.message).toContain('no CRC');
  });

  it('refuses text that is not an EMVCo MPM payload', () => {
    expect(decodeError('hello')?.message).toContain('Not an EMVCo merchant-presented QR');
    expect(decodeError('000202')?.message).toContain('Not an EMVCo merchant-presented QR');
    expect(decodeError('')?.message).toContain('empty');
  });

  it('refuses text longer than the cap before reading it', () => {
    expect(decodeError(`000201${'9'.repeat(5000)}`)?.message).toContain('longer than 1024');
  });

  it('reads a 556-character real Bre-B code (beyond the EMVCo 512 recommendation)', () => {
    const long = encodeMerchantQr([
      { id: 52, value: '0000' },
      ...Array.from({ length: 6 }, (_, i) => ({ id: 80 + i, value: 'x'.repeat(85) })),
    ]);
    expect(long.length).toBeGreaterThan(512);
    expect(parseEmv(long).get(85)).toBe('x'.repeat(85));
  });
});

describe('parseTemplate', () => {
  it('reads nested TLV and says undefined for a value that is not TLV', () => {
    expect(parseTemplate('0014br.gov.bcb.pix0101x')).toEqual({
      ids: [0, 1],
      values: ['br.gov.bcb.pix', 'x'],
    });
    expect(parseTemplate('396675601610467266269')).toBeUndefined();
  });
});

// A static Pix QR whose name (59), city (60) and reference (62.05) the cases fill in.
function qr(name: string, city = 'SAO PAULO', reference = 'REF123'): string {
  return staticPixQr({ key: 'pix@example.com', name, city, txid: reference });
}

describe('characters no data object may hold (docs/qr-schemes.md "Characters")', () => {
  test.each([
    ['NUL', '\u0000', 'U+0000'],
    ['BEL', '\u0007', 'U+0007'],
    ['ESC', '\u001b', 'U+001B'],
    ['a line feed', '\n', 'U+000A'],
    ['DEL', '\u007f', 'U+007F'],
    ['a C1 control', '\u0085', 'U+0085'],
    ['a right-to-left override', '\u202e', 'U+202E'],
    ['a bidirectional isolate', '\u2067', 'U+2067'],
    ['a lone high surrogate', '\ud83d', 'U+D83D'],
    ['a lone low surrogate', '\ude00', 'U+DE00'],
  ])('%s in the merchant name is refused, naming data object 59', (_name, character, label) => {
    const text = qr(`LOJA${character}CENTRAL`);
    const detail = decodeError(text);
    expect(detail).toMatchObject({ tag: 'QrDecodeError', field: 'qr_string' });
    expect(detail?.message).toContain(`Data object 59 holds ${label}`);
    expect(detail?.metadata).toEqual({ data_object: '59', position: String(text.indexOf(character)) });
  });

  test('in the city and inside template 62, the message names the object and sub-object', () => {
    expect(decodeError(qr('LOJA', 'SAO\u0000PAULO'))?.metadata?.data_object).toBe('60');
    expect(decodeError(qr('LOJA', 'SAO PAULO', 'REF\u001b[31m'))?.metadata?.data_object).toBe('62.05');
  });

  test('accented names and characters outside the BMP (a surrogate pair) are text, not refused', () => {
    expect(parseEmv(qr('JOSÉ DA SILVA', 'BOGOTÁ')).get(59)).toBe('JOSÉ DA SILVA');
    expect(parseEmv(qr('CAFÉ 😀')).get(59)).toBe('CAFÉ 😀');
  });
});
