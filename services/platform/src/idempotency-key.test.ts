import fc from 'fast-check';
import { checkIdempotencyKey } from './idempotency-key';

// The documented limit (docs/api/idempotency.md "The Idempotency-Key"): 1 to 255 characters.
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Keys near the rule's edges: printable ASCII, spaces, controls, non-ASCII, around 255. */
const idempotencyKeyCandidates = fc.oneof(
  fc.string({ unit: fc.constantFrom(' ', 'a', '~', '!', '\t', '\x7f', 'é', '\u0000'), maxLength: 8 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 250, maxLength: 260 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

describe('checkIdempotencyKey', () => {
  it('accepts 1 to 255 printable ASCII characters, spaces included, and nothing blank', () => {
    expect(checkIdempotencyKey('a')).toBe('ok');
    expect(checkIdempotencyKey('order 42 pay')).toBe('ok');
    expect(checkIdempotencyKey('k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH))).toBe('ok');
    expect(checkIdempotencyKey('')).toBe('missing');
    expect(checkIdempotencyKey('   ')).toBe('missing');
    expect(checkIdempotencyKey('k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1))).toBe('invalid');
    expect(checkIdempotencyKey('clé')).toBe('invalid');
    expect(checkIdempotencyKey('a\tb')).toBe('invalid');
  });

  it('ok exactly for the strings docs/api/idempotency.md "The Idempotency-Key" describes', () => {
    fc.assert(
      fc.property(idempotencyKeyCandidates, (key) => {
        const printable = [...key].every((c) => c >= ' ' && c <= '~');
        const expected =
          key.trim() === ''
            ? 'missing'
            : printable && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH
              ? 'ok'
              : 'invalid';
        expect(checkIdempotencyKey(key)).toBe(expected);
      }),
    );
  });
});
