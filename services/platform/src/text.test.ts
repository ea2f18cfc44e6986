import { firstForbidden, forbiddenCharacterClass } from './text';

describe('forbidden characters (docs/qr-schemes.md "Characters")', () => {
  const forbidden = new RegExp(`[${forbiddenCharacterClass()}]`);

  test('firstForbidden and the character class refuse the same BMP characters (surrogates aside)', () => {
    const disagree: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCharCode(code);
      if ((firstForbidden(`a${character}b`) === 1) !== forbidden.test(character)) disagree.push(code);
    }
    expect(disagree).toEqual([]);
  });

  test('the ranges are C0 and DEL, C1, and the bidirectional embeddings, overrides and isolates', () => {
    expect(forbiddenCharacterClass()).toBe(
      '\\u0000-\\u001F\\u007F-\\u009F\\u061C-\\u061C\\u200E-\\u200F\\u202A-\\u202E\\u2066-\\u2069',
    );
    // Every bidirectional control of UAX #9 (marks, embeddings, overrides, isolates) is refused.
    for (const mark of ['\u061c', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069'])
      expect(firstForbidden(`PADARIA${mark}PAO`)).toBe(7);
    expect(forbidden.test('JOSÉ DA SILVA, BOGOTÁ 😀')).toBe(false);
  });

  test('a surrogate pair is a character; a lone surrogate is refused where it stands', () => {
    expect(firstForbidden('x😀y')).toBe(-1);
    expect(firstForbidden('x\ud83dy')).toBe(1);
    expect(firstForbidden('xy\ude00')).toBe(2);
    expect(firstForbidden('x\ud83d')).toBe(1);
  });

  test('scans only the range it is given', () => {
    expect(firstForbidden('AB\u0000CD', 3, 5)).toBe(-1);
    expect(firstForbidden('AB\u0000CD', 0, 5)).toBe(2);
  });
});
