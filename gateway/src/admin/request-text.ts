import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';
import { codePointLabel, firstForbidden } from '@qr-payout/platform/text';

// The admin API's requests hold texts an operator types (a tenant's name, an endpoint's URL or
// header) and ids. None may hold a control or bidirectional formatting character, by the rule every
// text we take in follows (docs/qr-schemes.md "Characters"): a NUL cannot be stored in PostgreSQL
// (it was a 500), and ESC or U+202E would reach the next operator's terminal through payoutctl.

/** The first string field of `message` (nested and repeated ones included) holding a forbidden character. */
function firstForbiddenText(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') {
    const at = firstForbidden(value);
    return at === -1 ? undefined : `${path} holds ${codePointLabel(value, at)} at position ${at}`;
  }
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return undefined;
  const entries = Array.isArray(value)
    ? value.map((item, index) => [`${path}[${index}]`, item] as const)
    : Object.entries(value)
        .filter(([key]) => key !== '$typeName' && key !== '$unknown')
        .map(([key, item]) => [path ? `${path}.${key}` : key, item] as const);
  for (const [at, item] of entries) {
    const found = firstForbiddenText(item, at);
    if (found) return found;
  }
  return undefined;
}

/**
 * Refuses a request any of whose texts holds a control or bidirectional formatting character:
 * `invalid_argument` naming the field, before any handler runs (docs/operators.md "The admin API
 * without payoutctl").
 */
export function refuseForbiddenText(): Interceptor {
  return (next) => async (req) => {
    if (req.stream) return next(req);
    const found = firstForbiddenText(req.message, '');
    if (found)
      throw new ConnectError(
        `${found}: control and bidirectional characters are refused`,
        Code.InvalidArgument,
      );
    return next(req);
  };
}
