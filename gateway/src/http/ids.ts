import { idPattern, isId } from '@qr-payout/platform/ids';

// Public id formats (docs/architecture.md "Money and ids": a prefix, then a ULID in Crockford
// base32), by platform's one implementation (isId), for the routes that answer a malformed id
// without a call and the JSON Schemas that document them.

export const TRANSACTION_ID_PATTERN = idPattern('txn');
export const INSTRUCTION_ID_PATTERN = idPattern('ins');
export const WEBHOOK_DELIVERY_ID_PATTERN = idPattern('whd');

/** `txn_` + 26 Crockford base32 characters. */
export function isTransactionId(id: string): boolean {
  return isId(id, 'txn');
}

/** `ins_` + 26 Crockford base32 characters. */
export function isInstructionId(id: string): boolean {
  return isId(id, 'ins');
}

/** `whd_` + 26 Crockford base32 characters. */
export function isWebhookDeliveryId(id: string): boolean {
  return isId(id, 'whd');
}
