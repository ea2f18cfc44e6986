import type { FastifySchemaValidationError } from 'fastify';

/**
 * One readable message naming the field (docs/api/errors.md "Error names"), from the first schema error:
 * "qr_string is required", "wallet_currency must match pattern ...".
 */
const PATTERN_HINTS: Record<string, string> = {
  wallet_currency:
    'must be an ISO 4217 currency code in upper case, such as USD (GET /v1/fx/currencies lists those we quote from)',
};

export function formatValidationMessage(errors: FastifySchemaValidationError[], dataVar: string): string {
  const first = errors[0];
  if (!first) return `The ${dataVar} is not valid.`;
  const params = first.params as Record<string, unknown>;
  const path = first.instancePath.split('/').filter(Boolean).join('.');
  if (first.keyword === 'required') {
    const missing = String(params['missingProperty']);
    return `${path ? `${path}.` : ''}${missing} is required`;
  }
  if (first.keyword === 'additionalProperties') {
    const extra = String(params['additionalProperty']);
    return `${path ? `${path}.` : ''}${extra} is not a known field`;
  }
  const subject = path || dataVar;
  // A regular expression tells a reader nothing: the fields people get wrong say what they want.
  const hint = first.keyword === 'pattern' ? PATTERN_HINTS[subject] : undefined;
  if (hint) return `${subject} ${hint}`;
  // A field that may be null (null-as-absent.ts) has a type list: "must be string or null".
  if (first.keyword === 'type' && Array.isArray(params['type'])) {
    return `${subject} must be ${(params['type'] as string[]).join(' or ')}`;
  }
  return `${subject} ${first.message ?? 'is not valid'}`;
}
