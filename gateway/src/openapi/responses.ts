import {
  ERROR_REGISTRY,
  ERROR_TAGS,
  type ErrorEntry,
  type ErrorTag,
  renderErrorBody,
} from '../errors/registry';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TRANSACTION_ID } from './examples';

// The builders of the response objects routes declare (http/routes/*): success bodies with their
// schema and examples, and error responses showing each error name they can carry, rendered by the
// registry (docs/api/errors.md "The error body"). No status or error name is chosen here: the
// groups routes share are in http/routes/shared-responses.ts. The OpenAPI generator (paths.ts)
// copies the objects as they are.

/** The sandbox's public URL: the server when PUBLIC_DOCS_URL names no other. */
export const SANDBOX_SERVER_URL = 'http://localhost:8080';
const EXAMPLE_DOCS_URL = `${SANDBOX_SERVER_URL}/docs`;

export const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': ref('headers', 'XRateLimitLimit'),
  'x-ratelimit-remaining': ref('headers', 'XRateLimitRemaining'),
  'x-ratelimit-reset': ref('headers', 'XRateLimitReset'),
  'RateLimit-Policy': ref('headers', 'RateLimitPolicy'),
  RateLimit: ref('headers', 'RateLimit'),
};

export type Examples = Record<string, { summary?: string; value: unknown }>;

/** A JSON body with its examples; the first example is what "Try it out" sends. */
export function jsonContent(schema: object, examples?: Examples) {
  return { 'application/json': { schema, ...(examples ? { examples } : {}) } };
}

/** One example of `value`, named `name`. */
export function example(name: string, summary: string, value: unknown): Examples {
  return { [name]: { summary, value } };
}

/** The body `tag` answers with, as the registry renders it. */
export function exampleErrorBody(tag: ErrorTag) {
  const declared = (ERROR_REGISTRY[tag] as ErrorEntry).bodyFields ?? {};
  return renderErrorBody({
    tag,
    requestId: EXAMPLE_REQUEST_ID,
    publicDocsUrl: EXAMPLE_DOCS_URL,
    // Every 429 tells how long to wait, in the body as in Retry-After.
    ...(ERROR_REGISTRY[tag].status === 429 ? { retryAfterSeconds: 12 } : {}),
    ...('transaction_id' in declared ? { fields: { transaction_id: EXAMPLE_TRANSACTION_ID } } : {}),
  });
}

/** An error response: one example per tag it can carry, named by the tag (errorTagsOf reads them). */
export function errorResponse(
  tags: readonly ErrorTag[],
  description: string,
  extraHeaders: Record<string, object> = {},
) {
  const examples: Examples = {};
  for (const tag of tags)
    examples[tag] = { summary: ERROR_REGISTRY[tag].title, value: exampleErrorBody(tag) };
  return {
    description,
    headers: { 'x-request-id': ref('headers', 'XRequestId'), ...extraHeaders },
    content: jsonContent(ref('schemas', 'ErrorBody'), examples),
  };
}

/** An error response of one tag, described by the registry. */
export function registryErrorResponse(tag: ErrorTag, extraHeaders: Record<string, object> = {}) {
  return errorResponse([tag], `${describeTags([tag])}: ${ERROR_REGISTRY[tag].description}`, extraHeaders);
}

export function okResponse(
  description: string,
  schema: object,
  authenticated: boolean,
  examples: Examples,
  extraHeaders: Record<string, object> = {},
) {
  return {
    description,
    headers: {
      'x-request-id': ref('headers', 'XRequestId'),
      ...(authenticated ? RATE_LIMIT_HEADERS : {}),
      ...extraHeaders,
    },
    content: jsonContent(schema, examples),
  };
}

/** The last page of a newest-first list: one item under `key`, no `next_cursor`. */
export function lastPageExample(key: string, item: unknown): Examples {
  return example('last_page', 'The last page', {
    [key]: [item],
    next_cursor: null,
    request_id: EXAMPLE_REQUEST_ID,
  });
}

/** `{ <key>: value, request_id }`, the shape of most success bodies. */
export function withRequestId(key: string, value: unknown) {
  return { [key]: value, request_id: EXAMPLE_REQUEST_ID };
}

export function htmlResponse(description: string) {
  return {
    description,
    headers: { 'x-request-id': ref('headers', 'XRequestId') },
    content: {
      'text/html': {
        schema: { type: 'string' },
        examples: example('page', 'An HTML page', '<!doctype html><html lang="en">…</html>'),
      },
    },
  };
}

export function describeTags(tags: readonly string[]): string {
  return tags.map((t) => `\`${t}\``).join(', ');
}

/** What an extra error body field means, per error that declares it (the registry's `bodyFields`). */
export function describeBodyField(field: string): string {
  const uses = ERROR_TAGS.flatMap((tag) => {
    const meaning = (ERROR_REGISTRY[tag] as ErrorEntry).bodyFields?.[field];
    return meaning === undefined ? [] : [`${describeTags([tag])}: ${meaning}`];
  });
  return uses.join(' ');
}

/** One status of two tags, each described by the registry, both retryable after Retry-After. */
export function retryableEitherResponse(
  tags: readonly [ErrorTag, ErrorTag],
  extraHeaders: Record<string, object> = {},
) {
  return errorResponse(
    tags,
    `${tags.map((tag) => `${describeTags([tag])}: ${ERROR_REGISTRY[tag].description} `).join('')}` +
      'Both are retryable after the Retry-After header.',
    { ...extraHeaders, 'Retry-After': ref('headers', 'RetryAfter') },
  );
}

/** Marks a response as a replay; only on replays, so not required. */
export const IDEMPOTENT_REPLAYED_HEADER = { 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') };
