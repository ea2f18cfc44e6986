// The one rule for an Idempotency-Key (docs/api/idempotency.md "The Idempotency-Key"), read by the
// gateway before its cache and by payout before its durable record, so no key can pass one and be
// refused by the other after work was done.
//
// 1 to 255 printable ASCII characters (0x20-0x7e, spaces included), not blank: the key is stored
// and compared byte for byte and shows up in support conversations, so control characters or
// other encodings, which would make two "equal" keys differ, are refused.

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** What the rule says of a key: usable, missing (empty or blank), or malformed. */
type IdempotencyKeyVerdict = 'ok' | 'missing' | 'invalid';

export function checkIdempotencyKey(value: string): IdempotencyKeyVerdict {
  if (value.trim() === '') return 'missing';
  if (value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !PRINTABLE_ASCII.test(value)) return 'invalid';
  return 'ok';
}

/** The message of an `invalid` key, the same wherever it is refused. */
export const INVALID_IDEMPOTENCY_KEY_MESSAGE = `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters.`;
