// The one JSON reading of what clients and partners send (docs/api/errors.md "Bodies we refuse"):
// every request body of the public API and every partner callback. Nesting is bounded
// (MAX_JSON_DEPTH), and two rules come on top of JSON:
// - a key appears once per object. `{"amount":1,"amount":2}` is read as 2 by us and as 1 by some
//   other parser on the way (a logging proxy, the client's own audit), and a payment must mean one
//   thing to everyone who reads it;
// - a number means exactly what was written. `12.3499999999999999999` parses to the double 12.35;
//   paying that would pay an amount the client did not write, so the body is refused instead;
// - a string is Unicode text: `"\ud800"` (half of a surrogate pair) is valid JSON but no character
//   (I-JSON, RFC 7493 §2.1). Sent on over gRPC it would become U+FFFD, and a payment would carry a
//   name the client did not write, so the body is refused.

/** Why a text was refused: not JSON, a key twice in one object, or a number not kept as written. */
type JsonProblem =
  | { kind: 'syntax' }
  | { kind: 'too-deep'; limit: number }
  | { kind: 'duplicate-key'; key: string }
  | { kind: 'inexact-number'; key: string; written: string; read: number }
  | { kind: 'unpaired-surrogate'; key: string };

export class JsonRefused extends Error {
  constructor(readonly problem: JsonProblem) {
    super(`JSON refused: ${problem.kind}`);
  }
}

/**
 * A number's decimal value as digits and exponent, so that `1.10`, `1.1` and `11e-1` compare equal:
 * "11e1" (the digits, no leading or trailing zero, then where the point goes), or "0".
 */
function decimalValue(literal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) return literal; // Infinity, NaN: never equal to a literal JSON allows
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  const leading = /^0*/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(leading).replace(/0+$/, '');
  point -= leading;
  return digits === '' ? '0' : `${sign}${digits}e${point}`;
}

/**
 * The first key that appears twice in one object of `text`, which must already be valid JSON; a
 * key written with escapes (`"\u0061mount"`) is compared as the string it stands for.
 */
function firstDuplicateKey(text: string): string | undefined {
  // One set of keys per open object; null for an open array.
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      let end = i + 1;
      let escaped = false;
      while (text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c) {
          escaped = true;
          end++;
        }
        end++;
      }
      const keys = open[open.length - 1];
      if (expectKey && keys) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (code === 0x7b) {
      open.push(new Set());
      expectKey = true;
    } else if (code === 0x5b) {
      open.push(null);
    } else if (code === 0x7d || code === 0x5d) {
      open.pop();
    } else if (code === 0x2c) {
      expectKey = (open[open.length - 1] ?? null) !== null;
    }
  }
  return undefined;
}

/**
 * How deep objects and arrays may nest. Our bodies nest three or four levels; a reviver walks the
 * parsed value recursively, so thousands of levels ran out of stack (a 500, found by the fuzz
 * stage). Checked on the text before it is parsed.
 */
const MAX_JSON_DEPTH = 64;

/** Whether `text` opens more than `limit` objects and arrays inside each other (strings skipped). */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // Skip the string, escapes included; an unterminated one is the parser's syntax error.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * Parses `text` under the two rules above, with `parse` doing the JSON itself (a safe parser that
 * refuses prototype keys, say); throws JsonRefused. The check of numbers uses the source text V8
 * hands a reviver (JSON.parse source text access).
 */
export function parseStrictJson(
  text: string,
  parse: (text: string, reviver: Reviver) => unknown = JSON.parse,
): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw new JsonRefused({ kind: 'too-deep', limit: MAX_JSON_DEPTH });
  let inexact: JsonProblem | undefined;
  let notText: JsonProblem | undefined;
  const reviver: Reviver = (key, value, context) => {
    if (inexact === undefined && typeof value === 'number' && context?.source !== undefined) {
      if (decimalValue(context.source) !== decimalValue(String(value)))
        inexact = { kind: 'inexact-number', key, written: context.source, read: value };
    }
    if (notText === undefined && !(key.isWellFormed() && (typeof value !== 'string' || value.isWellFormed())))
      notText = { kind: 'unpaired-surrogate', key };
    return value;
  };
  let value: unknown;
  try {
    value = parse(text, reviver);
  } catch (err) {
    if (err instanceof SyntaxError) throw new JsonRefused({ kind: 'syntax' });
    throw err;
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== undefined) throw new JsonRefused({ kind: 'duplicate-key', key: duplicate });
  if (inexact) throw new JsonRefused(inexact);
  if (notText) throw new JsonRefused(notText);
  return value;
}

/** One sentence for a refusal, as both the gateway's and payout's errors word it. */
export function describeJsonProblem(problem: JsonProblem): string {
  switch (problem.kind) {
    case 'syntax':
      return 'The request body is not valid JSON.';
    case 'too-deep':
      return `The request body nests objects and arrays more than ${problem.limit} levels deep.`;
    case 'duplicate-key':
      return `The request body has the key "${problem.key}" more than once in one object; send each key once.`;
    case 'inexact-number':
      return `${problem.key === '' ? 'The body' : problem.key} is ${problem.written} as written, which reads back as ${problem.read}: send a number that can be kept exactly as written (at most 15 significant digits).`;
    case 'unpaired-surrogate':
      return `${problem.key === '' ? 'The body' : problem.key} holds half of a UTF-16 surrogate pair (an escape like \\ud800 alone), which is no character: send valid Unicode text.`;
  }
}
