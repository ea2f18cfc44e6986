import { apiError } from '../errors/api-error';

// What the list endpoints' query parsers share (GET /v1/transactions, GET /v1/webhook-deliveries):
// every parameter known and given once, and a positive `limit`. The page size range and the cursor
// are the owning service's rules and come back from it as a ValidationError naming the field.

export type QueryParams = Record<string, unknown>;

/** limit and cursor, the same on every newest-first list (as the document states them). */
export const PAGING_QUERY_PROPERTIES = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Page size, 1 to 100 (default 20).',
  },
  cursor: {
    type: 'string',
    description:
      '`next_cursor` of the previous page, as it was (opaque). Keep the same filters while paging.',
  },
} as const;

const INT32_MAX = 2_147_483_647;

/** The query as a record, ValidationError naming the first parameter not in `known`. */
export function knownQueryParams(query: unknown, known: readonly string[]): QueryParams {
  const params = (query ?? {}) as QueryParams;
  for (const name of Object.keys(params)) {
    if (!known.includes(name)) {
      throw apiError('ValidationError', `${name.slice(0, 64)} is not a known query parameter`);
    }
  }
  return params;
}

/** A parameter given at most once; ValidationError when it is repeated. */
export function singleQueryParam(params: QueryParams, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw apiError('ValidationError', `${name} must be given once`);
  return value;
}

/**
 * `limit` as the wire's page size: 0 when not given (0 means "not given" on the wire, so only a
 * positive limit passes). A huge value stays huge (and is refused by the service) instead of
 * overflowing int32.
 */
export function parseLimit(limit: string | undefined): number {
  const value = limit === undefined ? 0 : /^[0-9]+$/.test(limit) ? Number(limit) : Number.NaN;
  if (limit !== undefined && !(value > 0)) {
    throw apiError('ValidationError', 'limit must be a positive integer');
  }
  return Math.min(value, INT32_MAX);
}
