import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TRANSACTION_STATUSES, transactionStatuses } from '@qr-payout/platform/vocabulary';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FromSchema } from 'json-schema-to-ts';
import { PAGING_QUERY_MESSAGES, PAGING_QUERY_PROPERTIES, type QueryChecks } from './list-query';

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
 * declares it and the gateway validates it (list-query.ts): each parameter known, given once and of
 * its type. The page size range, the cursor and the order of the created range are payout's rules
 * (conventions: one owner per rule) and come back from it as the same ValidationError.
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

/** Date.parse rolls 2026-02-30 over to March: the calendar date must exist as written. */
function calendarDateExists(value: string): boolean {
  const [, year, month, day] = DATE_TIME.exec(value) ?? [];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

/** The API's date-time: the pattern, a calendar date that exists, an instant Date.parse reads. */
export function isApiDateTime(value: string): boolean {
  return DATE_TIME.test(value) && calendarDateExists(value) && !Number.isNaN(Date.parse(value));
}

const DATE_TIME_MESSAGE =
  'must be an ISO 8601 date-time with a time zone, at most milliseconds (for example 2026-01-02T03:04:05.678Z)';

/** What GET /v1/transactions adds to its query schema (list-query.ts). */
export const TRANSACTION_LIST_QUERY_CHECKS: QueryChecks = {
  messages: { ...PAGING_QUERY_MESSAGES, created_gte: DATE_TIME_MESSAGE, created_lt: DATE_TIME_MESSAGE },
  formats: { 'date-time': isApiDateTime },
};

/** The query of GET /v1/transactions once validated. */
export type TransactionListQueryParams = FromSchema<typeof TRANSACTION_LIST_QUERY_SCHEMA>;

/** The validated query → ListTransactions. Only a positive limit passes: 0 means "not given". */
export function listTransactionsQuery(params: TransactionListQueryParams): TransactionListQuery {
  return {
    status:
      params.status === undefined
        ? TransactionStatus.UNSPECIFIED
        : transactionStatuses.toProto(params.status),
    createdGte: timestampOf(params.created_gte),
    createdLt: timestampOf(params.created_lt),
    limit: params.limit ?? 0,
    cursor: params.cursor ?? '',
  };
}

function timestampOf(value: string | undefined): Timestamp | undefined {
  return value === undefined ? undefined : timestampFromDate(new Date(Date.parse(value)));
}
