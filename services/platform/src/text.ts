// The characters no text we take in may hold: QR data objects (docs/qr-schemes.md "Characters")
// and payer texts (docs/payer-identity.md "Rules"). EMVCo's character sets have no control
// characters, and no name, account or document number needs one: a NUL cannot be stored in
// PostgreSQL text, BEL or ESC would reach clients' screens, partner files and webhooks, and
// bidirectional formatting characters make a name read as another (U+202E can turn "EVILCORP" into
// what the reader expects to see; the marks U+061C, U+200E and U+200F reorder neutral characters).
// All of Unicode's bidirectional controls are refused (UAX #9, "Explicit Directional Formatting"
// and "Implicit Directional Marks").

/**
 * The forbidden code points as ranges, for what states the rule elsewhere (the OpenAPI pattern of
 * payer texts): C0 controls and DEL, C1 controls, the bidirectional marks (ALM, LRM, RLM),
 * embeddings, overrides and isolates.
 * isForbidden spells the same ranges out for speed; text.test.ts keeps the two equal (through
 * forbiddenCharacterClass).
 */
const FORBIDDEN_RANGES: readonly (readonly [number, number])[] = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x200e, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
];

/** FORBIDDEN_RANGES as the inside of a regular expression's character class: \u0000-\u001F… */
export function forbiddenCharacterClass(): string {
  const hex = (code: number) => `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return FORBIDDEN_RANGES.map(([from, to]) => `${hex(from)}-${hex(to)}`).join('');
}

/** True for a code unit no text may hold, surrogates aside (see firstForbidden). */
function isForbidden(code: number): boolean {
  if (code < 0x20 || code === 0x7f) return true; // C0 controls and DEL
  if (code < 0x80) return false;
  return (
    (code >= 0x80 && code <= 0x9f) || // C1 controls
    code === 0x061c || // arabic letter mark
    code === 0x200e ||
    code === 0x200f || // left-to-right and right-to-left marks
    (code >= 0x202a && code <= 0x202e) || // bidirectional embeddings and overrides
    (code >= 0x2066 && code <= 0x2069) // bidirectional isolates
  );
}

/**
 * The index of the first forbidden code unit of `text[start, end)`, or -1: a control or
 * bidirectional formatting character, or a surrogate that is not half of a pair (not a character
 * at all: it cannot be written as UTF-8).
 */
export function firstForbidden(text: string, start = 0, end: number = text.length): number {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x7f && code >= 0x20) continue;
    if (isForbidden(code)) return i;
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = i + 1 < end ? text.charCodeAt(i + 1) : 0;
      if (low >= 0xdc00 && low <= 0xdfff) i++;
      else return i;
    } else if (code >= 0xdc00 && code <= 0xdfff) return i;
  }
  return -1;
}

/** U+XXXX for the code unit at `index`, as the error message names it. */
export function codePointLabel(text: string, index: number): string {
  return `U+${text.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0')}`;
}
