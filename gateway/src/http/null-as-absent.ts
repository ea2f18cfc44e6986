// `null` for an optional request field means "not set" (docs/api/resources.md "Naming"): our
// responses write "not set" as null, so a client that mirrors them must not get a 400 for it.
// The request schemas accept null where a field is optional (`orNull`), and `dropNullFields`
// removes those keys before the handler runs, so handlers, payout and the Idempotency-Key
// fingerprint see one request whether a field was null or left out.
import type { preHandlerHookHandler } from 'fastify';

/** An optional field's schema that also accepts null (OpenAPI 3.1 / JSON Schema type list). */
export function orNull<S extends { readonly type: string }>(schema: S) {
  return { ...schema, type: [schema.type, 'null'] } as Omit<S, 'type'> & {
    readonly type: readonly [S['type'], 'null'];
  };
}

/** The body without its null-valued top-level keys (the schema admits null only where optional). */
function withoutNullFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
}

/** Route preHandler (after schema validation): the request body with null fields left out. */
export const dropNullFields: preHandlerHookHandler = (request, _reply, done) => {
  const body = request.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    request.body = withoutNullFields(body as Record<string, unknown>);
  }
  done();
};
