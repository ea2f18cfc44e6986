import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { compileQueryValidator, type QueryChecks } from '../http/list-query';
import type { TagName } from './reference';
import type { Examples } from './responses';

// A public route declares its whole contract in one place: its params, querystring, headers, body
// and every response (status → the OpenAPI response object with its JSON Schema and the error names
// it can carry), with the prose, tags and examples beside them. Fastify validates with the same
// schemas (fastifySchemaOf), the handler's types come from them (BodyOf, ParamsOf), and the OpenAPI
// document's paths are generated from the route table (paths.ts).

/** An object schema whose properties are the route's parameters of one kind. */
export interface ParameterSchema {
  readonly type: 'object';
  readonly required?: readonly string[];
  readonly properties: Readonly<Record<string, object>>;
  readonly additionalProperties?: boolean;
}

export interface PublicRouteSchema {
  readonly operationId: string;
  readonly tags: readonly TagName[];
  readonly summary: string;
  readonly description: string;
  /** `[]`: no API key (documentation, probes, partner callbacks). */
  readonly security?: readonly [];
  /** Path parameters; each property's `description` and first of `examples` document it. */
  readonly params?: ParameterSchema;
  /** Query parameters, in the order the document lists them; the query's validator (list-query.ts). */
  readonly querystring?: ParameterSchema;
  /** What the query's validator adds to its schema: messages and formats (list-query.ts). */
  readonly querystringChecks?: QueryChecks;
  /**
   * Request headers, for the document only: the hooks that read them own their rules (the
   * Idempotency-Key's is the platform's, also applied by payout), so Fastify does not check them a
   * second time with another message.
   */
  readonly headers?: ParameterSchema;
  readonly body?: JSONSchema;
  /** The request body's examples (the first is what "Try it out" sends); required unless false. */
  readonly bodyExamples?: Examples;
  readonly bodyRequired?: boolean;
  /**
   * The handler reads the body itself, so Fastify does not validate it: the partner callback's
   * signed bytes (payout parses them once verified), the replay's none-or-`{}`.
   */
  readonly bodyCheckedByHandler?: true;
  /** Every status the route answers: OpenAPI response objects (openapi/responses.ts). */
  readonly response: Readonly<Record<string, object>>;
}

export interface PublicRoute {
  readonly method: 'GET' | 'POST';
  /** Fastify's form: `/v1/transactions/:id`. */
  readonly url: string;
  readonly schema: PublicRouteSchema;
}

/** A route definition, its literal types kept so the handler's types derive from its schemas. */
export function defineRoute<const R extends PublicRoute>(route: R): R {
  return route;
}

/**
 * What Fastify validates of a route: its path parameters, its query and its body. A copy, so
 * Fastify's compilation never changes the definitions the document is generated from.
 */
export function fastifySchemaOf(route: PublicRoute): FastifySchema {
  const { params, querystring, body, bodyCheckedByHandler } = route.schema;
  return structuredClone({
    ...(params ? { params } : {}),
    ...(querystring ? { querystring } : {}),
    ...(body && !bodyCheckedByHandler ? { body } : {}),
  });
}

/**
 * The validator compiler of a route with a query: the query string's own (list-query.ts: values are
 * strings, one problem is reported in the API's order). A list route has no path parameters and no
 * body; one that did would need the app's compiler for them, so it fails at registration.
 */
function queryValidatorCompiler(route: PublicRoute): FastifySchemaCompiler<unknown> {
  const { querystring, querystringChecks = { messages: {} } } = route.schema;
  return ({ httpPart }) => {
    if (httpPart !== 'querystring' || !querystring) {
      throw new Error(`${route.method} ${route.url}: a route with a query validates only its query`);
    }
    return compileQueryValidator(querystring, querystringChecks);
  };
}

/** The method, URL and schema Fastify registers a route with (and the query's validator). */
export function routeOptions(route: PublicRoute) {
  return {
    method: route.method,
    url: route.url,
    schema: fastifySchemaOf(route),
    ...(route.schema.querystring ? { validatorCompiler: queryValidatorCompiler(route) } : {}),
  };
}

/** `null` of an optional field is dropped before the handler runs (http/null-as-absent.ts). */
type WithoutNulls<T> = { [K in keyof T]: Exclude<T[K], null> };

/** The body type of a route, from its schema, as the handler sees it (nulls dropped). */
export type BodyOf<R extends PublicRoute> = R['schema']['body'] extends JSONSchema
  ? WithoutNulls<FromSchema<R['schema']['body']>>
  : never;

/** The query of a route, from its schema, as the handler sees it once validated. */
export type QueryOf<R extends PublicRoute> = R['schema']['querystring'] extends JSONSchema
  ? FromSchema<R['schema']['querystring']>
  : never;

/** The path parameters of a route, from its schema. */
export type ParamsOf<R extends PublicRoute> = R['schema']['params'] extends JSONSchema
  ? FromSchema<R['schema']['params']>
  : never;
