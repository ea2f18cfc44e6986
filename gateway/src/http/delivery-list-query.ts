import type { DeliveryStatus } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import type { FromSchema } from 'json-schema-to-ts';
import { TRANSACTION_ID_PATTERN } from './ids';
import { PAGING_QUERY_MESSAGES, PAGING_QUERY_PROPERTIES, type QueryChecks } from './list-query';
import { deliveryStatusOf, PUBLIC_DELIVERY_STATUSES } from './presenters/webhook-delivery';

/**
 * The query of GET /v1/webhook-deliveries (docs/api/webhooks.md "Webhook deliveries"), as the route
 * declares it and the gateway validates it (list-query.ts): each parameter known, given once and of
 * its type (docs/api/errors.md "Error names": ValidationError naming the field). The page size
 * range and the cursor are the webhook service's rules (one owner per rule): a limit above 100 or a
 * cursor it did not make comes back from it as a ValidationError naming the field.
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

/** What GET /v1/webhook-deliveries adds to its query schema (list-query.ts). */
export const DELIVERY_LIST_QUERY_CHECKS: QueryChecks = {
  messages: {
    ...PAGING_QUERY_MESSAGES,
    transaction_id: 'must be a transaction id (txn_ followed by 26 Crockford base32 characters)',
  },
};

/** What ListDeliveries receives; 0, '' and UNSPECIFIED mean "not given" on the wire. */
export interface DeliveryListQuery {
  transactionId: string;
  status: DeliveryStatus | undefined;
  limit: number;
  cursor: string;
}

/** The query of GET /v1/webhook-deliveries once validated. */
export type DeliveryListQueryParams = FromSchema<typeof DELIVERY_LIST_QUERY_SCHEMA>;

/** The validated query → ListDeliveries. Only a positive limit passes: 0 means "not given". */
export function listDeliveriesQuery(params: DeliveryListQueryParams): DeliveryListQuery {
  return {
    transactionId: params.transaction_id ?? '',
    status: params.status === undefined ? undefined : deliveryStatusOf(params.status),
    limit: params.limit ?? 0,
    cursor: params.cursor ?? '',
  };
}
