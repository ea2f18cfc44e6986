import fc from 'fast-check';
import { trimSurroundingWhitespace } from './surrounding-whitespace';

// What a paste can put around a QR text, each one on its own.
const PASTED_WHITESPACE = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u0085', // NEL
  '\u00a0', // no-break space
  '\u1680',
  '\u180e', // Mongolian vowel separator
  '\u2002',
  '\u2009', // thin space
  '\u200a',
  '\u200b', // zero-width space
  '\u2028', // line separator
  '\u2029',
  '\u202f',
  '\u205f',
  '\u2060', // word joiner
  '\u3000', // ideographic space
  '\ufeff', // byte order mark
];

describe('trimSurroundingWhitespace', () => {
  it.each([
    ['000201...6304ABCD\n', '000201...6304ABCD'],
    [' 000201...6304ABCD ', '000201...6304ABCD'],
    ['\r\n\t000201...6304ABCD\r\n', '000201...6304ABCD'],
    ['\ufeff\u200b000201...6304ABCD\u00a0', '000201...6304ABCD'],
    ['   ', ''],
    ['', ''],
  ])('%j → %j', (text, trimmed) => {
    expect(trimSurroundingWhitespace(text)).toBe(trimmed);
  });

  it('keeps whitespace inside the text (it is data: merchant names, cities)', () => {
    expect(trimSurroundingWhitespace(' 5913PADARIA  SAO\u00a0JOAO\n6304ABCD\n')).toBe(
      '5913PADARIA  SAO\u00a0JOAO\n6304ABCD',
    );
  });

  it('returns the very same string when there is nothing to trim', () => {
    const text = '00020101021126';
    expect(trimSurroundingWhitespace(text)).toBe(text);
  });

  it('removes whatever trim() does, and the invisible padding trim() keeps', () => {
    for (const ws of PASTED_WHITESPACE)
      expect([ws, trimSurroundingWhitespace(`${ws}a${ws}b${ws}`)]).toEqual([ws, `a${ws}b`]);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const trimmed = trimSurroundingWhitespace(text);
        // Never more than trim() plus the four extra characters.
        expect(trimmed.replace(/^[\u0085\u180e\u200b\u2060\s]+|[\u0085\u180e\u200b\u2060\s]+$/gu, '')).toBe(
          trimmed,
        );
        expect(text.includes(trimmed)).toBe(true);
        expect(trimSurroundingWhitespace(trimmed)).toBe(trimmed);
        expect(trimmed.trim()).toBe(trimmed);
      }),
      { numRuns: 2000 },
    );
  });
});
