import type { FastifySchemaValidationError } from 'fastify';

/**
 * One readable message naming the field (design §6), from the first schema error:
 * "qr_string is required", "wallet_currency must match pattern ...".
 */
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
  return `${subject} ${first.message ?? 'is not valid'}`;
}
