import { describeJsonProblem, JsonRefused, parseStrictJson } from './json';

// The documented bound (docs/api/errors.md "Bodies we refuse").
const MAX_JSON_DEPTH = 64;

function refusal(text: string) {
  try {
    parseStrictJson(text);
  } catch (err) {
    if (err instanceof JsonRefused) return err.problem;
    throw err;
  }
  throw new Error(`expected ${text} to be refused`);
}

describe('parseStrictJson (docs/api/errors.md "Bodies we refuse")', () => {
  test('reads ordinary JSON as JSON.parse does', () => {
    const text = '{"amount":12.5,"n":[1,2.10,3e2,-0,0.1],"s":"a,b{\\"c\\":1}","o":{"amount":1}}';
    expect(parseStrictJson(text)).toEqual(JSON.parse(text));
  });

  test.each([
    ['{"amount":1,"amount":2}', 'amount'],
    ['{"a":{"b":1,"b":1}}', 'b'],
    ['[{"x":1},{"x":2,"y":{"x":3},"x":4}]', 'x'],
    ['{"amount":1,"\\u0061mount":2}', 'amount'],
  ])('refuses %s: key %s twice in one object', (text, key) => {
    expect(refusal(text)).toEqual({ kind: 'duplicate-key', key });
  });

  test('the same key in different objects, or as a value, is not a duplicate', () => {
    for (const text of ['{"a":{"a":"a"},"b":["a","a"],"c":{"a":1}}', '{"k":"\\"k\\"","j":"k"}']) {
      expect(parseStrictJson(text)).toEqual(JSON.parse(text));
    }
  });

  test.each([
    ['{"amount":12.3499999999999999999}', 'amount', 12.35],
    ['{"amount":12345678901234567890}', 'amount', 12345678901234567000],
    ['{"limit":1e400}', 'limit', Number.POSITIVE_INFINITY],
    ['{"a":[0.1000000000000000055511151231257827]}', '0', 0.1],
  ])('refuses %s: the number is not kept as written', (text, key, read) => {
    expect(refusal(text)).toMatchObject({ kind: 'inexact-number', key, read });
  });

  test('numbers written in other forms of the same value are kept', () => {
    expect(parseStrictJson('{"a":1.10,"b":11e-1,"c":0.00012,"d":1E21,"e":-0.0}')).toEqual({
      a: 1.1,
      b: 1.1,
      c: 0.00012,
      d: 1e21,
      e: -0,
    });
  });

  test('refuses nesting beyond MAX_JSON_DEPTH before parsing (thousands of levels overflowed the reviver)', () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(parseStrictJson(nested(MAX_JSON_DEPTH))).toBeDefined();
    expect(refusal(nested(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'too-deep', limit: MAX_JSON_DEPTH });
    expect(refusal(`{"a":${nested(100_000)}}`)).toEqual({ kind: 'too-deep', limit: MAX_JSON_DEPTH });
    expect(refusal(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`)).toMatchObject({ kind: 'too-deep' });
    // Brackets inside strings are text, not nesting.
    expect(parseStrictJson(`{"s":"${'['.repeat(1_000)}\\"${'{'.repeat(1_000)}"}`)).toMatchObject({
      s: expect.any(String),
    });
  });

  test.each([
    ['{"payer_name":"Ju\\ud800an"}', 'payer_name'],
    ['{"qr_string":"x\\udc00"}', 'qr_string'],
    ['{"a":["ok","\\ud83d"]}', '1'],
    ['{"\\ud800":1}', '\ud800'],
  ])('refuses %s: half a surrogate pair is no character (I-JSON)', (text, key) => {
    expect(refusal(text)).toEqual({ kind: 'unpaired-surrogate', key });
  });

  test('a whole surrogate pair, escaped or not, is text', () => {
    expect(parseStrictJson('{"n":"\\ud83d\\ude00 😀"}')).toEqual({ n: '😀 😀' });
  });

  test('not JSON is a syntax problem; each problem has one sentence', () => {
    expect(refusal('{"a":')).toEqual({ kind: 'syntax' });
    expect(describeJsonProblem({ kind: 'duplicate-key', key: 'amount' })).toMatch(/"amount" more than once/);
    expect(describeJsonProblem(refusal('{"amount":12.3499999999999999999}'))).toBe(
      'amount is 12.3499999999999999999 as written, which reads back as 12.35: send a number that can be kept exactly as written (at most 15 significant digits).',
    );
  });
});
