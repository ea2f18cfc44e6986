import { checkIdempotencyKey, INVALID_IDEMPOTENCY_KEY_MESSAGE } from '@qr-payout/platform/idempotency-key';
import { apiError } from '../errors/api-error';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The Idempotency-Key of a payment operation (docs/api/idempotency.md "The Idempotency-Key"), by
 * the rule payout applies too (platform `idempotency-key`): 400 IdempotencyKeyMissing when absent
 * or blank, 400 ValidationError when sent twice, longer than 255 characters or not printable ASCII.
 */
export function readIdempotencyKey(value: string | string[] | undefined): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0))
    throw apiError('IdempotencyKeyMissing');
  if (Array.isArray(value)) {
    throw apiError('ValidationError', 'Idempotency-Key must be sent once.');
  }
  const verdict = checkIdempotencyKey(value);
  if (verdict === 'missing') throw apiError('IdempotencyKeyMissing');
  if (verdict === 'invalid') throw apiError('ValidationError', INVALID_IDEMPOTENCY_KEY_MESSAGE);
  return value;
}
