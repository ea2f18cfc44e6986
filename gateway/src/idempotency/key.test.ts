import { checkIdempotencyKey } from '@qr-payout/platform/idempotency-key';
import fc from 'fast-check';
import { ApiError } from '../errors/api-error';
import { readIdempotencyKey } from './key';

function tagOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err instanceof ApiError ? err.tag : 'not an ApiError';
  }
}

describe('readIdempotencyKey', () => {
  it('accepts 1 to 255 printable ASCII characters as sent', () => {
    expect(readIdempotencyKey(['a'])).toBe('a');
    expect(readIdempotencyKey(['0f8fad5b-d9cb-469f-a165-70867728950e'])).toBe(
      '0f8fad5b-d9cb-469f-a165-70867728950e',
    );
    expect(readIdempotencyKey([' spaced key ~!'])).toBe(' spaced key ~!');
    expect(readIdempotencyKey(['k'.repeat(255)])).toHaveLength(255);
  });

  it('is IdempotencyKeyMissing when absent or blank', () => {
    expect(tagOf(() => readIdempotencyKey(['']))).toBe('IdempotencyKeyMissing');
    expect(tagOf(() => readIdempotencyKey(['   ']))).toBe('IdempotencyKeyMissing');
    expect(tagOf(() => readIdempotencyKey([]))).toBe('IdempotencyKeyMissing');
  });

  it('is ValidationError when too long, not printable ASCII, or sent twice', () => {
    expect(tagOf(() => readIdempotencyKey(['k'.repeat(256)]))).toBe('ValidationError');
    expect(tagOf(() => readIdempotencyKey(['clé']))).toBe('ValidationError');
    expect(tagOf(() => readIdempotencyKey(['a\tb']))).toBe('ValidationError');
    expect(tagOf(() => readIdempotencyKey(['a', 'b']))).toBe('ValidationError');
  });

  // The gateway's half of "one rule, two owners" (docs/contributing.md "One owner per rule"): its
  // reader says what platform's checkIdempotencyKey says of every single key, so it agrees with
  // payout, which calls the same rule.
  it("refuses exactly the keys platform's rule refuses, with the rule's verdict", () => {
    const verdictTag = { ok: undefined, missing: 'IdempotencyKeyMissing', invalid: 'ValidationError' };
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: fc.constantFrom(' ', 'a', '~', '\t', '\x7f', 'é', '\u0000'), maxLength: 8 }),
          fc.string({ unit: 'grapheme-ascii', minLength: 250, maxLength: 260 }),
          fc.string({ unit: 'binary', maxLength: 20 }),
        ),
        (key) => {
          expect(tagOf(() => readIdempotencyKey([key]))).toBe(verdictTag[checkIdempotencyKey(key)]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
