import type { FastifyReply } from 'fastify';

// Errors of the partner payout protocol: RFC 9457 problem details with a stable `code` member
// callers switch on (docs/partner-protocol.md, "Errors").

export type PayoutProblemCode =
  | 'invalid_request'
  | 'idempotency_key_missing'
  | 'currency_not_supported'
  | 'unauthorized'
  | 'payout_not_found'
  | 'idempotency_conflict'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'faults_disabled'
  | 'internal_error';

const TITLES: Readonly<Record<PayoutProblemCode, string>> = {
  invalid_request: 'The request is not valid',
  idempotency_key_missing: 'An Idempotency-Key header is required',
  currency_not_supported: 'The rail does not settle this currency',
  unauthorized: 'Missing or wrong API key',
  payout_not_found: 'No such payout',
  idempotency_conflict: 'The Idempotency-Key was used with another request body',
  unsupported_media_type: 'The body must be application/json',
  payload_too_large: 'The body is too large',
  faults_disabled: 'Fault injection is off',
  internal_error: 'Internal error',
};

export function sendPayoutProblem(
  reply: FastifyReply,
  status: number,
  code: PayoutProblemCode,
  detail: string,
  extra: Record<string, string> = {},
) {
  return reply
    .code(status)
    .type('application/problem+json')
    .send({
      type: `urn:qr-payout:partner-sim:problem:${code}`,
      title: TITLES[code],
      status,
      detail,
      code,
      ...extra,
    });
}
