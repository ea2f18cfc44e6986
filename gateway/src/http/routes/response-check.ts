import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../../openapi/document';
import type { PublicRoute } from '../../openapi/route';
import { PUBLIC_ROUTES } from './table';

// For tests: every response a public route sends is checked against what its definition declares
// (openapi/route.ts) for that status: the status is declared (exactly, as `4XX` or as `default`),
// and a JSON body matches the declared schema, `$ref`s read from the document's components. The
// violations are collected and make the app's close() fail, naming each one.

type ResponseObject = { $ref?: string; content?: Record<string, { schema?: object }> };

const DOCUMENT_ID = 'openapi.json';

/** The schema as a standalone one: its `#/components/...` refs point into the document. */
function againstDocument(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`));
}

export function checkResponsesAgainstRoutes(app: FastifyInstance): void {
  const document = buildOpenApiDocument();
  const sharedResponses = document.components.responses as Record<string, ResponseObject>;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  const routes = new Map(PUBLIC_ROUTES.map((route) => [`${route.method} ${route.url}`, route]));
  const validators = new Map<object, ValidateFunction>();
  const violations: string[] = [];

  function declaredResponse(route: PublicRoute, status: number): ResponseObject | undefined {
    const { response } = route.schema;
    const declared = (response[String(status)] ??
      response[`${String(status)[0]}XX`] ??
      response['default']) as ResponseObject | undefined;
    const ref = declared?.$ref?.replace('#/components/responses/', '');
    return ref === undefined ? declared : sharedResponses[ref];
  }

  function validatorOf(schema: object): ValidateFunction {
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile(againstDocument(schema));
      validators.set(schema, validate);
    }
    return validate;
  }

  app.addHook('onSend', async (request, reply, payload) => {
    const route = routes.get(`${request.method} ${request.routeOptions.url}`);
    if (!route) return payload;
    const where = `${route.method} ${route.url} ${reply.statusCode}`;
    const declared = declaredResponse(route, reply.statusCode);
    if (!declared) {
      violations.push(`${where}: status not declared`);
      return payload;
    }
    const contentType = String(reply.getHeader('content-type') ?? '');
    const schema = declared.content?.['application/json']?.schema;
    if (!contentType.startsWith('application/json') || typeof payload !== 'string') return payload;
    if (!schema) {
      violations.push(`${where}: a JSON body where none is declared`);
      return payload;
    }
    const validate = validatorOf(schema);
    if (!validate(JSON.parse(payload))) {
      violations.push(`${where}: ${ajv.errorsText(validate.errors)} in ${payload.slice(0, 300)}`);
    }
    return payload;
  });
  app.addHook('onClose', async () => {
    if (violations.length > 0) {
      throw new Error(`responses not as their routes declare:\n${violations.join('\n')}`);
    }
  });
}
