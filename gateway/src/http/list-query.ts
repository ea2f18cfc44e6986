import Ajv, { type ErrorObject } from 'ajv';
import { type ApiError, apiError } from '../errors/api-error';

// The list endpoints' queries (GET /v1/transactions, GET /v1/webhook-deliveries) are validated by
// the schema their route declares, with what the query string adds to it: every value arrives as a
// string (an integer parameter is read from its digits) or, when repeated, as an array; one problem
// is reported, naming the parameter (docs/api/errors.md "Error names"). The page size range and the
// cursor are the owning service's rules and come back from it as a ValidationError naming the field,
// so the schema's `maximum` (which the document states) is not checked here.

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

/** What a refused value of a paging parameter is told, after its name. */
export const PAGING_QUERY_MESSAGES = { limit: 'must be a positive integer' } as const;

/** A route's query schema, as the validator reads it. */
export interface QuerySchema {
  readonly properties: Readonly<Record<string, object>>;
}

/**
 * What a list route adds to its query schema: what a refused value of a parameter is told after its
 * name (an enum lists its values without one), and the formats its schema names.
 */
export interface QueryChecks {
  readonly messages: Readonly<Record<string, string>>;
  readonly formats?: Readonly<Record<string, (value: string) => boolean>>;
}

/** The validated query, or the one ValidationError to answer. */
export type QueryResult = { value: Record<string, unknown> } | { error: ApiError };

const INT32_MAX = 2_147_483_647;

/** A huge page size stays huge (and is refused by the service) instead of overflowing int32. */
function integerFromDigits(value: unknown): unknown {
  return typeof value === 'string' && /^[0-9]+$/.test(value) ? Math.min(Number(value), INT32_MAX) : value;
}

/** The schema the gateway checks: the route's, less the page size range the service owns. */
function gatewayRules(schema: QuerySchema): object {
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => {
      const { maximum: _ownedByTheService, ...rest } = property as { maximum?: number };
      return [name, rest];
    }),
  );
  return { ...structuredClone(schema), properties };
}

interface Problem {
  /** The order problems are reported in: the first is answered. */
  rank: readonly number[];
  message: string;
}

/**
 * Which problem is reported first, as the API always has: an unknown parameter (the first in the
 * query), then a repeated parameter, then a refused value, in the schema's order of the
 * parameters; a parameter with a format (a date-time) is checked after the others, on its own.
 */
function problemOf(
  error: ErrorObject,
  query: Record<string, unknown>,
  schema: QuerySchema,
  messages: Readonly<Record<string, string>>,
): Problem {
  if (error.keyword === 'additionalProperties') {
    const name = String(error.params['additionalProperty']);
    return {
      rank: [0, Object.keys(query).indexOf(name)],
      message: `${name.slice(0, 64)} is not a known query parameter`,
    };
  }
  const name = error.instancePath.slice(1);
  const names = Object.keys(schema.properties);
  const index = names.indexOf(name);
  const repeated = Array.isArray(query[name]);
  const kind = repeated ? 0 : 1;
  const checkedLast = 'format' in (schema.properties[name] ?? {});
  const rank = checkedLast ? [2, index, kind] : [1, kind, index];
  if (repeated) return { rank, message: `${name} must be given once` };
  const told =
    messages[name] ??
    (error.keyword === 'enum'
      ? `must be one of ${(error.params['allowedValues'] as string[]).join(', ')}`
      : (error.message ?? 'is not valid'));
  return { rank, message: `${name} ${told}` };
}

function compare(a: Problem, b: Problem): number {
  for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
    const d = (a.rank[i] ?? 0) - (b.rank[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The validator of a list query: its declared schema and the route's checks (QueryChecks). */
export function compileQueryValidator(
  schema: QuerySchema,
  checks: QueryChecks,
): (query: unknown) => QueryResult {
  const { messages, formats = {} } = checks;
  const ajv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: false, strict: true });
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check);
  const validate = ajv.compile(gatewayRules(schema));
  const integers = Object.entries(schema.properties)
    .filter(([, property]) => (property as { type?: unknown }).type === 'integer')
    .map(([name]) => name);

  return (query) => {
    const value: Record<string, unknown> = { ...((query ?? {}) as Record<string, unknown>) };
    for (const name of integers) {
      if (name in value) value[name] = integerFromDigits(value[name]);
    }
    if (validate(value)) return { value };
    const problems = (validate.errors ?? []).map((error) => problemOf(error, value, schema, messages));
    const first = problems.sort(compare)[0];
    return { error: apiError('ValidationError', first?.message ?? 'The querystring is not valid.') };
  };
}
