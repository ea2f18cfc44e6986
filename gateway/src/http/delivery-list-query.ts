import type { DeliveryStatus } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { apiError } from '../errors/api-error';
import { isTransactionId } from './ids';
import {
  deliveryStatusOf,
  isPublicDeliveryStatus,
  PUBLIC_DELIVERY_STATUSES,
} from './presenters/webhook-delivery';

/** The query parameters of GET /v1/webhook-deliveries (spec §4.7, design §5). */
export const DELIVERY_LIST_QUERY_PARAMETERS = ['transaction_id', 'status', 'limit', 'cursor'] as const;

/** What ListDeliveries receives; 0, '' and UNSPECIFIED mean "not given" on the wire. */
export interface DeliveryListQuery {
  transactionId: string;
  status: DeliveryStatus | undefined;
  limit: number;
  cursor: string;
}

const INT32_MAX = 2_147_483_647;

/**
 * HTTP → ListDeliveries: the gateway checks that each parameter is known, given once and of its
 * type (design §6: ValidationError naming the field). The page size range and the cursor are the
 * webhook service's rules (conventions "a rule checked in two places drifts"): a limit above 100 or
 * a cursor it did not make comes back from it as a ValidationError naming the field. Only a
 * positive limit passes, because 0 on the wire means "not given".
 */
export function parseDeliveryListQuery(query: unknown): DeliveryListQuery {
  const params = (query ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(params)) {
    if (!(DELIVERY_LIST_QUERY_PARAMETERS as readonly string[]).includes(name)) {
      throw apiError('ValidationError', `${name.slice(0, 64)} is not a known query parameter`);
    }
  }
  const transactionId = single(params, 'transaction_id');
  const status = single(params, 'status');
  const limit = single(params, 'limit');
  const cursor = single(params, 'cursor');

  if (transactionId !== undefined && !isTransactionId(transactionId)) {
    throw apiError(
      'ValidationError',
      'transaction_id must be a transaction id (txn_ followed by 26 Crockford base32 characters)',
    );
  }
  if (status !== undefined && !isPublicDeliveryStatus(status)) {
    throw apiError('ValidationError', `status must be one of ${PUBLIC_DELIVERY_STATUSES.join(', ')}`);
  }
  const limitValue = limit === undefined ? 0 : /^[0-9]+$/.test(limit) ? Number(limit) : Number.NaN;
  if (limit !== undefined && !(limitValue > 0)) {
    throw apiError('ValidationError', 'limit must be a positive integer');
  }
  return {
    transactionId: transactionId ?? '',
    status: status === undefined ? undefined : deliveryStatusOf(status),
    // A huge value stays huge (and is refused by the service) instead of overflowing int32.
    limit: Math.min(limitValue, INT32_MAX),
    cursor: cursor ?? '',
  };
}

function single(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw apiError('ValidationError', `${name} must be given once`);
  return value;
}
