import { describeJsonProblem, JsonRefused, parseStrictJson } from '@qr-payout/platform/json';
import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { apiError } from '../errors/api-error';

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Only JSON bodies are accepted (415 for anything else, docs/api/errors.md "Error names"). Parsing
 * is secure-json-parse with both __proto__ and constructor.prototype keys refused, so a body can
 * never reach an object's prototype, under @qr-payout/platform/json's rules (a key once per object, a
 * number exactly as written); each failure is a 400 ValidationError saying what was wrong.
 */
export function registerJsonBodyParser(
  app: FastifyInstance,
  opts: {
    /** Routes whose body is optional (replay): an empty body is `undefined` rather than a 400. */
    allowEmpty?: boolean;
  } = {},
): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (req, body, done) => {
      let parsed: unknown;
      try {
        refuseOtherCharset(req.headers['content-type']);
        parsed = opts.allowEmpty && body === '' ? undefined : parseJsonBody(body as string);
      } catch (err) {
        done(err as Error, undefined);
        return;
      }
      done(null, parsed);
    },
  );
}

/**
 * JSON is UTF-8 (RFC 8259 §8.1) and the body is read as UTF-8: a request that says it is in another
 * charset would be read as something other than what the client wrote, so it is 415.
 */
function refuseOtherCharset(contentType: string | undefined): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    throw apiError(
      'UnsupportedMediaType',
      `The body must be JSON in UTF-8 (charset=utf-8, or no charset); this request says charset=${charset}.`,
    );
}

export function parseJsonBody(text: string): unknown {
  if (text.length === 0) throw apiError('ValidationError', 'The request body is empty; send a JSON object.');
  try {
    // Keys once per object, numbers exactly as written (@qr-payout/platform/json), and no key that
    // reaches a prototype.
    return parseStrictJson(text, (body, reviver) => {
      try {
        return sjson.parse(body, reviver, { protoAction: 'error', constructorAction: 'error' });
      } catch (err) {
        if (err instanceof SyntaxError && /forbidden prototype property/.test(err.message)) {
          throw apiError(
            'ValidationError',
            'The request body contains a forbidden key (__proto__ or constructor.prototype).',
          );
        }
        throw err;
      }
    });
  } catch (err) {
    if (err instanceof JsonRefused) throw apiError('ValidationError', describeJsonProblem(err.problem));
    throw err;
  }
}
