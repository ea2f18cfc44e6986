import { isForApiClients } from '../../openapi/reference';
import type { PublicRoute } from '../../openapi/route';

// What a sample shows of an operation, read from its route definition (docs/api/README.md
// "Samples"): nothing here is written per operation.

export interface SampleOperation {
  readonly operationId: string;
  readonly method: 'GET' | 'POST';
  /** Fastify's form: `/v1/transactions/:id`. */
  readonly url: string;
  readonly summary: string;
  /** Path parameters in URL order, each with its documented example value. */
  readonly pathParams: readonly { readonly name: string; readonly value: string }[];
  /** The route's first request body example; undefined when it takes none. */
  readonly body: Readonly<Record<string, unknown>> | undefined;
  /** Takes query parameters (the lists' filters and paging); the samples send none. */
  readonly query: boolean;
  /** The body may be left out (the replay's `{}`). */
  readonly bodyOptional: boolean;
  /** Execute, pay and the sandbox trigger: a new Idempotency-Key per payment. */
  readonly idempotent: boolean;
  /** Sends the API key (every operation but the public sandbox catalogue). */
  readonly authenticated: boolean;
  /** The statuses the operation documents, e.g. `200`, `404`. */
  readonly statuses: readonly string[];
}

/**
 * Example values a caller swaps for real ones, e.g. the example transaction id for one it made
 * (the samples check, docs/testing.md "Samples"); a value without an entry stays as documented.
 */
export type ValueSubstitutions = ReadonlyMap<string, string>;

function substituted(value: unknown, values: ValueSubstitutions): unknown {
  if (typeof value === 'string') return values.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => substituted(item, values));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituted(v, values)]));
  return value;
}

function pathParamsOf(route: PublicRoute, values: ValueSubstitutions) {
  const properties = route.schema.params?.properties ?? {};
  return [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name = '']) => {
    const example = (properties[name] as { examples?: readonly unknown[] } | undefined)?.examples?.[0];
    if (typeof example !== 'string')
      throw new Error(`${route.schema.operationId}: path parameter ${name} has no example`);
    return { name, value: substituted(example, values) as string };
  });
}

function bodyOf(route: PublicRoute, values: ValueSubstitutions) {
  if (!route.schema.body) return undefined;
  const first = Object.values(route.schema.bodyExamples ?? {})[0];
  if (!first) throw new Error(`${route.schema.operationId}: its body has no example`);
  return substituted(first.value, values) as Record<string, unknown>;
}

export function sampleOperationOf(
  route: PublicRoute,
  values: ValueSubstitutions = new Map(),
): SampleOperation {
  const s = route.schema;
  return {
    operationId: s.operationId,
    method: route.method,
    url: route.url,
    summary: s.summary,
    pathParams: pathParamsOf(route, values),
    query: s.querystring !== undefined,
    body: bodyOf(route, values),
    bodyOptional: s.bodyRequired === false,
    idempotent: Object.keys(s.headers?.properties ?? {}).includes('Idempotency-Key'),
    authenticated: s.security === undefined,
    statuses: Object.keys(s.response),
  };
}

/** The operations API clients call, in the table's order, each as its samples show it. */
export function sampleOperations(
  routes: readonly PublicRoute[],
  values: ValueSubstitutions = new Map(),
): SampleOperation[] {
  return routes
    .filter((route) => isForApiClients(route.schema.tags))
    .map((r) => sampleOperationOf(r, values));
}

/** The URL path with its parameters' values: `/v1/transactions/txn_…`. */
export function pathOf(op: SampleOperation): string {
  return op.pathParams.reduce((url, p) => url.replace(`:${p.name}`, encodeURIComponent(p.value)), op.url);
}

/** The body a sample sends: none for an optional one that is empty (the replay). */
export function sentBody(op: SampleOperation): Readonly<Record<string, unknown>> | undefined {
  if (!op.body) return undefined;
  return op.bodyOptional && Object.keys(op.body).length === 0 ? undefined : op.body;
}
