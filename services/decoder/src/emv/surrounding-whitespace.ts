// The whitespace a scanner, a clipboard or a chat app adds around a QR text: a trailing newline
// or space, tabs, CR LF, no-break and other Unicode spaces, a byte order mark or zero-width space
// in front. None of it can be part of an EMVCo payload, which starts with "000201" and ends with
// 4 hex digits, so removing it never changes a valid code. Whitespace inside the text is data
// (merchant names, cities) and stays.

// The characters JavaScript's trim() removes (Unicode White_Space and the BOM), plus those trim()
// keeps although they are invisible padding in pasted text: NEL (U+0085), the Mongolian vowel
// separator (U+180E), zero-width space (U+200B) and word joiner (U+2060).
function isSurroundingWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    code === 0x180e ||
    (code >= 0x2000 && code <= 0x200b) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x2060 ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** `text` without the whitespace around it; the same string (no copy) when there is none. */
export function trimSurroundingWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSurroundingWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isSurroundingWhitespace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
