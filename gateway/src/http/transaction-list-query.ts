import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TRANSACTION_STATUSES, transactionStatuses } from '@qr-payout/platform/vocabulary';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { apiError } from '../errors/api-error';
import {
  knownQueryParams,
  PAGING_QUERY_PROPERTIES,
  parseLimit,
  type QueryParams,
  singleQueryParam as single,
} from './list-query';

/** What ListTransactions receives; 0, '', UNSPECIFIED and undefined mean "not given". */
export interface TransactionListQuery {
  status: TransactionStatus;
  createdGte: Timestamp | undefined;
  createdLt: Timestamp | undefined;
  limit: number;
  cursor: string;
}

// RFC 3339 date-time (ISO 8601 with a zone): what the API itself writes, offsets accepted. At most
// milliseconds: finer digits would be dropped silently, moving a half-open bound.
/** created_gte / created_lt: ISO 8601 with a time zone, at most milliseconds (also the OpenAPI pattern). */
export const DATE_TIME_PATTERN =
  '^(\\d{4})-(\\d{2})-(\\d{2})T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?(Z|[+-]\\d{2}:\\d{2})$';
const DATE_TIME = new RegExp(DATE_TIME_PATTERN);

/**
 * The query of GET /v1/transactions (docs/api/resources.md "Listing transactions"), as the route
 * declares it; parseTransactionListQuery knows these names and no other.
 */
export const TRANSACTION_LIST_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    status: {
      type: 'string',
      // The public states (docs/api/resources.md "Transaction states"), from the one vocabulary.
      enum: TRANSACTION_STATUSES,
      description: 'Only transactions in this state.',
    },
    created_gte: {
      type: 'string',
      format: 'date-time',
      pattern: DATE_TIME_PATTERN,
      description:
        'Only transactions created at or after this instant (ISO 8601 with a time zone, at most milliseconds; a calendar date that exists).',
    },
    created_lt: {
      type: 'string',
      format: 'date-time',
      pattern: DATE_TIME_PATTERN,
      description: 'Only transactions created before this instant; must be later than `created_gte`.',
    },
    ...PAGING_QUERY_PROPERTIES,
  },
  additionalProperties: false,
} as const;

/** The query parameters of GET /v1/transactions, from its schema. */
export const TRANSACTION_LIST_QUERY_PARAMETERS = Object.keys(TRANSACTION_LIST_QUERY_SCHEMA.properties);

/** Date.parse rolls 2026-02-30 over to March: the calendar date must exist as written. */
function calendarDateExists(value: string): boolean {
  const [, year, month, day] = DATE_TIME.exec(value) ?? [];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

/**
 * HTTP → ListTransactions: the gateway checks that each parameter is known, given once and of its
 * type (ValidationError naming it). The page size range, the cursor and the order of the created
 * range are payout's rules (conventions: one owner per rule) and come back from it as the same
 * error. Only a positive limit passes, because 0 on the wire means "not given".
 */
export function parseTransactionListQuery(query: unknown): TransactionListQuery {
  const params = knownQueryParams(query, TRANSACTION_LIST_QUERY_PARAMETERS);
  const status = single(params, 'status');
  const limit = single(params, 'limit');
  const cursor = single(params, 'cursor');
  if (status !== undefined && !transactionStatuses.isName(status)) {
    throw apiError('ValidationError', `status must be one of ${TRANSACTION_STATUSES.join(', ')}`);
  }
  const limitValue = parseLimit(limit);
  return {
    status: status === undefined ? TransactionStatus.UNSPECIFIED : transactionStatuses.toProto(status),
    createdGte: dateTime(params, 'created_gte'),
    createdLt: dateTime(params, 'created_lt'),
    limit: limitValue,
    cursor: cursor ?? '',
  };
}

function dateTime(params: QueryParams, name: string): Timestamp | undefined {
  const value = single(params, name);
  if (value === undefined) return undefined;
  const ms = DATE_TIME.test(value) && calendarDateExists(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw apiError(
      'ValidationError',
      `${name} must be an ISO 8601 date-time with a time zone, at most milliseconds (for example 2026-01-02T03:04:05.678Z)`,
    );
  }
  return timestampFromDate(new Date(ms));
}
