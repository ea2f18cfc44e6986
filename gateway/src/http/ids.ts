// Public id formats (design §2: a prefix, then a ULID in Crockford base32). One place for the
// routes that answer a malformed id without a call and the JSON Schemas that document them.

const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';

export const TRANSACTION_ID_PATTERN = `^txn_${ULID_PATTERN}$`;
export const INSTRUCTION_ID_PATTERN = `^ins_${ULID_PATTERN}$`;
export const WEBHOOK_DELIVERY_ID_PATTERN = `^whd_${ULID_PATTERN}$`;

const TRANSACTION_ID = new RegExp(TRANSACTION_ID_PATTERN);
const INSTRUCTION_ID = new RegExp(INSTRUCTION_ID_PATTERN);
const WEBHOOK_DELIVERY_ID = new RegExp(WEBHOOK_DELIVERY_ID_PATTERN);

/** `txn_` + 26 Crockford base32 characters. */
export function isTransactionId(id: string): boolean {
  return TRANSACTION_ID.test(id);
}

/** `ins_` + 26 Crockford base32 characters. */
export function isInstructionId(id: string): boolean {
  return INSTRUCTION_ID.test(id);
}

/** `whd_` + 26 Crockford base32 characters. */
export function isWebhookDeliveryId(id: string): boolean {
  return WEBHOOK_DELIVERY_ID.test(id);
}
