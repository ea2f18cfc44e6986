// EMVCo Merchant Presented Mode TLV reading (docs/qr-schemes.md "EMVCo TLV"): 2-digit id, 2-digit
// decimal length counted in characters (code points), then the value. One pass, no regex, no
// exception on the happy path; a malformed input throws QrDecodeError naming the position.
import { codePointLabel, firstForbidden } from '@qr-payout/platform/text';
import { crc16Scan, crcHex, HAS_SURROGATES } from './crc';
import { qrDecodeError } from './errors';

/**
 * The longest QR text we read, in characters. EMVCo says a payload should not exceed 512, but real
 * Redeban Bre-B codes run to 556 (docs/qr-schemes.md "EMVCo TLV"), so the cap is twice that: it
 * bounds the work per request without refusing codes wallets in Colombia pay every day.
 */
export const MAX_QR_CHARACTERS = 1024;

/** Data objects of one level (the payload or a template), in the order they appear. */
export interface TlvList {
  readonly ids: readonly number[];
  readonly values: readonly string[];
}

/** A parsed payload whose structure and CRC are valid. */
export interface EmvPayload {
  /** The top-level data objects (00 first, 63 last). */
  readonly objects: TlvList;
  /** Top-level value by id (0–99), or undefined. */
  get(id: number): string | undefined;
  /** The template at a top-level id read as TLV, or undefined when absent or not TLV. */
  template(id: number): TlvList | undefined;
}

/** The value of `id` in a template, or undefined. */
export function tlvGet(list: TlvList, id: number): string | undefined {
  const { ids } = list;
  for (let i = 0; i < ids.length; i++) if (ids[i] === id) return list.values[i];
  return undefined;
}

function digit(code: number): number {
  return code >= 48 && code <= 57 ? code - 48 : -1;
}

// Reads two decimal digits at `pos`, or -1.
function twoDigits(text: string, pos: number): number {
  const tens = digit(text.charCodeAt(pos));
  const units = digit(text.charCodeAt(pos + 1));
  return tens < 0 || units < 0 ? -1 : tens * 10 + units;
}

// Whether a surrogate pair (one character outside the BMP) starts at `at`. A lone surrogate is a
// code unit of its own, as the encoder and the CRC count it (and "Characters" refuses it).
function isPairAt(text: string, at: number, end: number): boolean {
  const high = text.charCodeAt(at);
  if (high < 0xd800 || high > 0xdbff || at + 1 >= end) return false;
  const low = text.charCodeAt(at + 1);
  return low >= 0xdc00 && low <= 0xdfff;
}

// The code-unit index `count` code points after `pos`, or -1 past `end`. Only used when the
// text has surrogate pairs (characters outside the BMP take two code units).
function advanceCodePoints(text: string, pos: number, count: number, end: number): number {
  let at = pos;
  for (let n = 0; n < count; n++) {
    if (at >= end) return -1;
    at += isPairAt(text, at, end) ? 2 : 1;
  }
  return at;
}

// Where and why TLV reading stopped; a class so that callers test it with one instanceof.
class TlvProblem {
  constructor(
    readonly problem: string,
    readonly position: number,
  ) {}
}

type ReadResult = TlvList | TlvProblem;

function readTlv(text: string, start: number, end: number, wide: boolean): ReadResult {
  const ids: number[] = [];
  const values: string[] = [];
  let seen0 = 0;
  let seen1 = 0;
  let seen2 = 0;
  let seen3 = 0;
  let pos = start;
  while (pos < end) {
    if (pos + 4 > end) return new TlvProblem('truncated data object header', pos);
    const id = twoDigits(text, pos);
    if (id < 0) return new TlvProblem('id is not two digits', pos);
    const length = twoDigits(text, pos + 2);
    if (length < 0) return new TlvProblem(`length of id ${pad(id)} is not two digits`, pos + 2);
    const valueStart = pos + 4;
    const valueEnd = wide ? advanceCodePoints(text, valueStart, length, end) : valueStart + length;
    if (valueEnd < 0 || valueEnd > end)
      return new TlvProblem(`value of id ${pad(id)} (length ${length}) runs past the end`, pos);
    // Ids seen, as a 100-bit set in four words (no allocation, no scan).
    const bit = 1 << (id & 31);
    const word = id >> 5;
    const seenWord = word === 0 ? seen0 : word === 1 ? seen1 : word === 2 ? seen2 : seen3;
    if ((seenWord & bit) !== 0) return new TlvProblem(`id ${pad(id)} appears twice`, pos);
    if (word === 0) seen0 |= bit;
    else if (word === 1) seen1 |= bit;
    else if (word === 2) seen2 |= bit;
    else seen3 |= bit;
    ids.push(id);
    values.push(text.slice(valueStart, valueEnd));
    pos = valueEnd;
  }
  return { ids, values };
}

function pad(id: number): string {
  return id < 10 ? `0${id}` : String(id);
}

function hasSurrogates(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) return true;
  }
  return false;
}

function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    if (isPairAt(text, i, text.length)) i++;
    count++;
  }
  return count;
}

/** Whether a top-level id is a template (26–51, 62, 64, 80–99: docs/qr-schemes.md "EMVCo TLV"). */
function isTemplateId(id: number): boolean {
  return (id >= 26 && id <= 51) || id === 62 || id === 64 || id >= 80;
}

/**
 * The data object holding code unit `index` of the text `list` was read from (its values starting
 * at `base`): "59", or "62.05" inside a template; undefined when no value holds it.
 */
function dataObjectAt(list: TlvList, base: number, index: number, nested = false): string | undefined {
  let pos = base;
  for (let i = 0; i < list.ids.length; i++) {
    const id = list.ids[i] as number;
    const value = list.values[i] as string;
    const valueStart = pos + 4;
    const valueEnd = valueStart + value.length;
    if (index < valueEnd) {
      if (index < valueStart) return undefined;
      const inner = !nested && isTemplateId(id) ? parseTemplate(value) : undefined;
      const sub = inner && dataObjectAt(inner, valueStart, index, true);
      return sub ? `${pad(id)}.${sub}` : pad(id);
    }
    pos = valueEnd;
  }
  return undefined;
}

/** Reads a template value (26–51, 62, 64, 80–99) as TLV; undefined when it is not TLV. */
export function parseTemplate(value: string): TlvList | undefined {
  const result = readTlv(value, 0, value.length, hasSurrogates(value));
  return result instanceof TlvProblem ? undefined : result;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20; // CRC hex is compared case-insensitively (some producers write a–f)
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

function readCrc(value: string): number {
  if (value.length !== 4) return -1;
  let crc = 0;
  for (let i = 0; i < 4; i++) {
    const nibble = hexValue(value.charCodeAt(i));
    if (nibble < 0) return -1;
    crc = (crc << 4) | nibble;
  }
  return crc;
}

/**
 * Parses and checks an EMVCo MPM payload: length limit, CRC-16/CCITT-FALSE over the UTF-8 bytes up
 * to and including "6304", TLV structure at every position, 00 = "01" first, 63 last.
 */
export function parseEmv(text: string): EmvPayload {
  const length = text.length;
  if (length === 0) throw qrDecodeError('The QR text is empty.');
  if (
    length > MAX_QR_CHARACTERS &&
    (length > 2 * MAX_QR_CHARACTERS || codePointLength(text) > MAX_QR_CHARACTERS)
  )
    throw qrDecodeError(`The QR text is longer than ${MAX_QR_CHARACTERS} characters: not a payment QR.`, {
      max_length: String(MAX_QR_CHARACTERS),
    });
  if (!text.startsWith('000201'))
    throw qrDecodeError(
      'Not an EMVCo merchant-presented QR: it must start with the payload format indicator 000201. This format is not supported.',
    );
  if (
    length < 14 ||
    text.charCodeAt(length - 8) !== 54 ||
    text.charCodeAt(length - 7) !== 51 ||
    text.charCodeAt(length - 6) !== 48 ||
    text.charCodeAt(length - 5) !== 52
  )
    throw qrDecodeError('The QR has no CRC: tag 63 with 4 hex digits must be the last data object.');
  const scan = crc16Scan(text, length - 4);
  const expected = scan & 0xffff;
  const actualText = text.slice(length - 4);
  const actual = readCrc(actualText);
  if (actual !== expected)
    throw qrDecodeError(`CRC mismatch: expected ${crcHex(expected)}, the QR has ${actualText}.`, {
      expected_crc: crcHex(expected),
      actual_crc: actualText,
    });
  const result = readTlv(text, 0, length, (scan & HAS_SURROGATES) !== 0);
  if (result instanceof TlvProblem)
    throw qrDecodeError(`Malformed TLV at position ${result.position}: ${result.problem}.`, {
      position: String(result.position),
    });
  // The trailer check above saw "6304" 8 characters from the end; TLV must agree that it is an object.
  if (result.ids[result.ids.length - 1] !== 63)
    throw qrDecodeError('The QR has no CRC: tag 63 with 4 hex digits must be the last data object.');
  const forbidden = firstForbidden(text, 0, length);
  if (forbidden >= 0) {
    const field = dataObjectAt(result, 0, forbidden) ?? '?';
    throw qrDecodeError(
      `Data object ${field} holds ${codePointLabel(text, forbidden)} at position ${forbidden}: a control or formatting character no EMVCo QR may contain.`,
      { data_object: field, position: String(forbidden) },
    );
  }
  return new ParsedPayload(result, (scan & HAS_SURROGATES) !== 0);
}

// A class so that get/template calls stay monomorphic on the hot path.
class ParsedPayload implements EmvPayload {
  // Parsed templates by object position (null: not TLV), filled on first use.
  private readonly templates: (TlvList | null | undefined)[] = [];

  constructor(
    readonly objects: TlvList,
    // Whether the text has characters outside the BMP: only then do lengths need code-point counting.
    private readonly wide: boolean,
  ) {}

  // A linear scan: a payload has a few dozen objects at most, cheaper than building an index.
  private positionOf(id: number): number {
    const { ids } = this.objects;
    for (let i = 0; i < ids.length; i++) if (ids[i] === id) return i;
    return -1;
  }

  get(id: number): string | undefined {
    const at = this.positionOf(id);
    return at < 0 ? undefined : this.objects.values[at];
  }

  template(id: number): TlvList | undefined {
    const at = this.positionOf(id);
    if (at < 0) return undefined;
    const cached = this.templates[at];
    if (cached !== undefined) return cached ?? undefined;
    const value = this.objects.values[at] as string;
    const read = readTlv(value, 0, value.length, this.wide);
    const parsed = read instanceof TlvProblem ? null : read;
    this.templates[at] = parsed;
    return parsed ?? undefined;
  }
}

/** Whether `value` equals `lower` (an ASCII lower-case literal) ignoring ASCII case, without allocating. */
export function equalsIgnoreCase(value: string, lower: string): boolean {
  if (value.length !== lower.length) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const folded = code >= 65 && code <= 90 ? code + 32 : code;
    if (folded !== lower.charCodeAt(i)) return false;
  }
  return true;
}
