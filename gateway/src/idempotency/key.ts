import { checkIdempotencyKey, INVALID_IDEMPOTENCY_KEY_MESSAGE } from '@qr-payout/platform/idempotency-key';
import { apiError } from '../errors/api-error';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The Idempotency-Key of a payment operation (docs/api/idempotency.md "The Idempotency-Key"), by
 * the rule payout applies too (platform `idempotency-key`), from the value of each header line that
 * carried it: 400 IdempotencyKeyMissing when absent or blank, 400 ValidationError when sent on two
 * lines, longer than 255 characters or not printable ASCII.
 */
export function readIdempotencyKey(values: readonly string[]): string {
  if (values.length > 1) throw apiError('ValidationError', 'Idempotency-Key must be sent once.');
  const value = values[0];
  if (value === undefined) throw apiError('IdempotencyKeyMissing');
  const verdict = checkIdempotencyKey(value);
  if (verdict === 'missing') throw apiError('IdempotencyKeyMissing');
  if (verdict === 'invalid') throw apiError('ValidationError', INVALID_IDEMPOTENCY_KEY_MESSAGE);
  return value;
}
