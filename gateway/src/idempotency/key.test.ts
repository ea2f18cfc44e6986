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
    expect(readIdempotencyKey('a')).toBe('a');
    expect(readIdempotencyKey('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(
      '0f8fad5b-d9cb-469f-a165-70867728950e',
    );
    expect(readIdempotencyKey(' spaced key ~!')).toBe(' spaced key ~!');
    expect(readIdempotencyKey('k'.repeat(255))).toHaveLength(255);
  });

  it('is IdempotencyKeyMissing when absent or blank', () => {
    expect(tagOf(() => readIdempotencyKey(undefined))).toBe('IdempotencyKeyMissing');
    expect(tagOf(() => readIdempotencyKey(''))).toBe('IdempotencyKeyMissing');
    expect(tagOf(() => readIdempotencyKey('   '))).toBe('IdempotencyKeyMissing');
    expect(tagOf(() => readIdempotencyKey([]))).toBe('IdempotencyKeyMissing');
  });

  it('is ValidationError when too long, not printable ASCII, or sent twice', () => {
    expect(tagOf(() => readIdempotencyKey('k'.repeat(256)))).toBe('ValidationError');
    expect(tagOf(() => readIdempotencyKey('clé'))).toBe('ValidationError');
    expect(tagOf(() => readIdempotencyKey('a\tb'))).toBe('ValidationError');
    expect(tagOf(() => readIdempotencyKey(['a', 'b']))).toBe('ValidationError');
  });
});
