import { EXECUTE_REQUEST_SCHEMA, INSTRUCTION_RESPONSE_SCHEMA, PAY_REQUEST_SCHEMA } from '../http/schemas';
import { jsonContent, ref } from './responses';
import type { ParameterSchema, PublicRoute } from './route';

// The OpenAPI `paths` generated from the route table: nothing here is written per route. Each
// operation is its route's schema as declared; components.ts then turns every nested use of a named
// schema into a `$ref`.

/**
 * Schemas that are not told apart by shape: the document names them as the routes use them
 * (ExecuteRequest and PayRequest carry payout's rules, components.ts; InstructionResponse has the
 * shape of ResolveResponse).
 */
const NAMED_BY_IDENTITY = new Map<object, string>([
  [EXECUTE_REQUEST_SCHEMA, 'ExecuteRequest'],
  [PAY_REQUEST_SCHEMA, 'PayRequest'],
  [INSTRUCTION_RESPONSE_SCHEMA, 'InstructionResponse'],
]);

/**
 * `value` with each schema of NAMED_BY_IDENTITY as a `$ref` to its component; every part with none
 * inside stays the same object, so components.ts still recognizes the named schemas in it.
 */
function refByIdentity(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const name = NAMED_BY_IDENTITY.get(value);
  if (name) return ref('schemas', name);
  const entries = Object.entries(value);
  const mapped = entries.map(([key, item]) => [key, refByIdentity(item)] as const);
  if (mapped.every(([, item], i) => item === entries[i]?.[1])) return value;
  return Array.isArray(value) ? mapped.map(([, item]) => item) : Object.fromEntries(mapped);
}

/** `/v1/transactions/:id` → `/v1/transactions/{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * One parameter per property: its schema, its first example and its description beside it, in the
 * property's own order (an example written before the type comes before the schema).
 */
export function parametersOf(schema: ParameterSchema | undefined, location: 'path' | 'header' | 'query') {
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => {
    const { description, examples, ...rest } = property as {
      description?: string;
      examples?: readonly unknown[];
    };
    const parameter: Record<string, unknown> = {
      name,
      in: location,
      required: location === 'path' || (schema?.required ?? []).includes(name),
    };
    for (const key of Object.keys(property)) {
      if (key === 'examples') parameter['example'] = examples?.[0];
      else if (key === 'description') parameter['description'] = description;
      else parameter['schema'] ??= rest;
    }
    parameter['schema'] ??= rest;
    return parameter;
  });
}

/** The OpenAPI operation of a route. */
export function operationOf(route: PublicRoute) {
  const s = route.schema;
  const parameters = [
    ...parametersOf(s.params, 'path'),
    ...parametersOf(s.headers, 'header'),
    ...parametersOf(s.querystring, 'query'),
  ];
  return refByIdentity({
    operationId: s.operationId,
    tags: s.tags,
    summary: s.summary,
    description: s.description,
    ...(s.security ? { security: s.security } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(s.body
      ? {
          requestBody: {
            required: s.bodyRequired ?? true,
            content: jsonContent(s.body as object, s.bodyExamples),
          },
        }
      : {}),
    responses: s.response,
  }) as { description: string; responses: Record<string, unknown> };
}

/** The `paths` of the routes, in the table's order, each path's methods together. */
export function pathsOf(routes: readonly PublicRoute[]) {
  const paths: Record<string, Record<string, ReturnType<typeof operationOf>>> = {};
  for (const route of routes) {
    const path = openApiPath(route.url);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route) };
  }
  return paths;
}
