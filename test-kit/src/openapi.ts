import { readFileSync } from 'node:fs';
import path from 'node:path';

// The public OpenAPI document as committed (client/openapi.json, checked against the routes by
// gateway/src/openapi/drift.test.ts). Every deployment serves this one document: the sandbox and
// the production gateway alike, only `servers` naming the gateway that serves it
// (docs/api/README.md "The public API").

type Document = Record<string, unknown>;

export function committedOpenApiDocument(): Document {
  return JSON.parse(readFileSync(path.resolve(__dirname, '../../client/openapi.json'), 'utf8')) as Document;
}

/** The document without `servers`, the one part that names the gateway serving it. */
export function withoutServers(document: Document): Document {
  const { servers: _servers, ...rest } = document;
  return rest;
}
