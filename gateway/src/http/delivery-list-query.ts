import type { DeliveryStatus } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import { apiError } from '../errors/api-error';
import { isTransactionId, TRANSACTION_ID_PATTERN } from './ids';
import {
  knownQueryParams,
  PAGING_QUERY_PROPERTIES,
  parseLimit,
  singleQueryParam as single,
} from './list-query';
import {
  deliveryStatusOf,
  isPublicDeliveryStatus,
  PUBLIC_DELIVERY_STATUSES,
} from './presenters/webhook-delivery';

/**
 * The query of GET /v1/webhook-deliveries (docs/api/webhooks.md "Webhook deliveries"), as the route
 * declares it; parseDeliveryListQuery knows these names and no other.
 */
export const DELIVERY_LIST_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    transaction_id: {
      type: 'string',
      pattern: TRANSACTION_ID_PATTERN,
      description: 'Only deliveries of this transaction (`txn_` id).',
    },
    status: {
      type: 'string',
      enum: PUBLIC_DELIVERY_STATUSES,
      description: 'Only deliveries in this state. Combines with `transaction_id`.',
    },
    ...PAGING_QUERY_PROPERTIES,
  },
  additionalProperties: false,
} as const;

/** The query parameters of GET /v1/webhook-deliveries, from its schema. */
export const DELIVERY_LIST_QUERY_PARAMETERS = Object.keys(DELIVERY_LIST_QUERY_SCHEMA.properties);

/** What ListDeliveries receives; 0, '' and UNSPECIFIED mean "not given" on the wire. */
export interface DeliveryListQuery {
  transactionId: string;
  status: DeliveryStatus | undefined;
  limit: number;
  cursor: string;
}

/**
 * HTTP → ListDeliveries: the gateway checks that each parameter is known, given once and of its
 * type (docs/api/errors.md "Error names": ValidationError naming the field). The page size range
 * and the cursor are the webhook service's rules (conventions
 * "a rule checked in two places drifts"): a limit above 100 or a cursor it did not make comes back
 * from it as a ValidationError naming the field. Only a positive limit passes, because 0 on the
 * wire means "not given".
 */
export function parseDeliveryListQuery(query: unknown): DeliveryListQuery {
  const params = knownQueryParams(query, DELIVERY_LIST_QUERY_PARAMETERS);
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
  const limitValue = parseLimit(limit);
  return {
    transactionId: transactionId ?? '',
    status: status === undefined ? undefined : deliveryStatusOf(status),
    limit: limitValue,
    cursor: cursor ?? '',
  };
}
