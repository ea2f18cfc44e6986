import { apiError } from '../errors/api-error';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

// Printable ASCII only: the key is stored and compared byte for byte, and shows up in support
// conversations; control characters or other encodings would make two "equal" keys differ.
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The Idempotency-Key of a payment operation (spec §8): 400 IdempotencyKeyMissing when absent or
 * empty, 400 ValidationError when longer than 255 characters or not printable ASCII.
 */
export function readIdempotencyKey(value: string | string[] | undefined): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0))
    throw apiError('IdempotencyKeyMissing');
  if (Array.isArray(value)) {
    throw apiError('ValidationError', 'Idempotency-Key must be sent once.');
  }
  if (value.trim() === '') throw apiError('IdempotencyKeyMissing');
  if (value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !PRINTABLE_ASCII.test(value)) {
    throw apiError(
      'ValidationError',
      `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters.`,
    );
  }
  return value;
}
